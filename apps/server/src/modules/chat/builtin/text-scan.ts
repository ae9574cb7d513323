/**
 * A message being read by the built-in analyst: each recognised phrase is cut out once it has been
 * understood, so that "5-minute candles" does not also read as "5 candles".
 */
export class TextScan {
  private text: string;

  constructor(message: string) {
    // Lower case, typographic dashes and quotes made plain, one space between words.
    this.text = ` ${message
      .toLowerCase()
      .replace(/[\u2010-\u2015]/g, '-')
      .replace(/[\u2018\u2019]/g, "'")
      .replace(/\s+/g, ' ')
      .trim()} `;
  }

  get remaining(): string {
    return this.text;
  }

  /** The first match of the pattern (global flags are ignored), removed from the text. */
  take(pattern: RegExp): RegExpExecArray | null {
    const re = new RegExp(pattern.source, pattern.flags.replace('g', ''));
    const match = re.exec(this.text);
    if (!match) return null;
    this.text = `${this.text.slice(0, match.index)} ${this.text.slice(match.index + match[0].length)}`.replace(
      /\s+/g,
      ' ',
    );
    return match;
  }

  has(pattern: RegExp): boolean {
    return pattern.test(this.text);
  }
}

const WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  ninety: 90,
  hundred: 100,
};

/** Digits or a number word, as a regex source ("a"/"an" count as one: "an hour"). */
export const NUMBER = `(\\d{1,4}|${Object.keys(WORDS).join('|')})`;
/** Digits or a number word other than "a"/"an" (so that "a few candles" is no count). */
export const COUNT = `(\\d{1,4}|${Object.keys(WORDS)
  .filter((w) => w !== 'a' && w !== 'an')
  .join('|')})`;

export function numberValue(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  return WORDS[text];
}
