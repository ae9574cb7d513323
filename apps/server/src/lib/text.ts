const counts = new Intl.NumberFormat('en-US');

/** '1 trade', '1,240 trades'; pass the plural when it is not the word plus s ('3 losses'). */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${counts.format(count)} ${count === 1 ? word : many}`;
}

/** A name that may open a sentence, used inside one: 'The OpenAI-compatible AI server' → 'the OpenAI-compatible…'. */
export const withinSentence = (name: string): string => (name.startsWith('The ') ? `the ${name.slice(4)}` : name);
