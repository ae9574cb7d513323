/**
 * docs/PRODUCT.md, AI chat: answers are shown as plain text, so markdown symbols are removed while the words, numbers,
 * signs and line structure stay. Code is kept literally, `2*3`, `USD_JPY` and `-12.50` are content, not markup.
 */

// Private-use characters never appear in answers; they hold protected text while the markup around it is removed.
const HOLD_OPEN = '\uE000';
const HOLD_CLOSE = '\uE001';
const holdPattern = new RegExp(`${HOLD_OPEN}(\\d+)${HOLD_CLOSE}`, 'g');

const fencePattern = /^\s{0,3}(`{3,}|~{3,})/;
const rulePattern = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/;
const setextPattern = /^\s{0,3}=+\s*$/;
const headingPattern = /^\s{0,3}#{1,6}(?:\s+|$)/;
const closingHashesPattern = /\s+#+\s*$/;
const quotePattern = /^\s{0,3}(?:>\s?)+/;
const bulletPattern = /^(\s*)[-*+]\s+/;

const isTableSeparator = (line: string) => line.includes('|') && line.includes('-') && /^[\s|:-]+$/.test(line);
const isFramedRow = (line: string) => {
  const t = line.trim();
  return t.length > 1 && t.startsWith('|') && t.endsWith('|');
};

function tableRow(line: string): string {
  let t = line.trim();
  if (t.startsWith('|')) t = t.slice(1);
  if (t.endsWith('|') && !t.endsWith('\\|')) t = t.slice(0, -1);
  return t
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim())
    .join(' · ');
}

function stripInline(line: string): string {
  const held: string[] = [];
  const hold = (text: string) => `${HOLD_OPEN}${held.push(text) - 1}${HOLD_CLOSE}`;

  // An escaped backtick opens no code span, and inside a code span a backslash is literal: hence this order.
  let out = line
    .replace(/\\`/g, () => hold('`'))
    .replace(/(`+)(.+?)\1(?!`)/g, (_m, _ticks: string, code: string) =>
      hold(/^ .* $/.test(code) && code.trim() ? code.slice(1, -1) : code),
    )
    .replace(/\\([\\*_{}[\]()#+\-.!|>~<])/g, (_m, ch: string) => hold(ch))
    .replace(/!\[([^\]]*)\]\([^)\s]*(?:\s+"[^"]*")?\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)\s]*(?:\s+"[^"]*")?\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/<((?:https?:\/\/|mailto:)[^>\s]+)>/g, '$1');

  out = out
    .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, '$1')
    .replace(/(?<![\p{L}\p{N}_])__(?=\S)(.+?)(?<=\S)__(?![\p{L}\p{N}_])/gu, '$1')
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '$1')
    .replace(/(?<![\p{L}\p{N}*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\p{L}\p{N}*])/gu, '$1')
    .replace(/(?<![\p{L}\p{N}_])_(?=[^\s_])(.+?)(?<=[^\s_])_(?![\p{L}\p{N}_])/gu, '$1');

  // A code span may hold an escaped backtick, so restoring can take a second pass.
  while (out.includes(HOLD_OPEN)) out = out.replace(holdPattern, (_m, i: string) => held[Number(i)] ?? '');
  return out;
}

/** The line as plain text, or null when the line is only markup (a setext heading's underline). */
function stripBlock(line: string): string | null {
  if (setextPattern.test(line)) return null;
  if (rulePattern.test(line)) return '';
  let out = line;
  // A quoted heading or list item is still a heading or list item.
  out = out.replace(quotePattern, '');
  if (headingPattern.test(out)) out = out.replace(headingPattern, '').replace(closingHashesPattern, '');
  out = out.replace(bulletPattern, '$1• ');
  return stripInline(out);
}

export function stripMarkdown(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let fence: { char: string; length: number } | null = null;
  let inTable = false;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fenceMatch = fencePattern.exec(line);
    if (fence) {
      const closes =
        fenceMatch?.[1] &&
        fenceMatch[1][0] === fence.char &&
        fenceMatch[1].length >= fence.length &&
        line.trim() === fenceMatch[1];
      if (closes) fence = null;
      else out.push(line);
      continue;
    }
    if (fenceMatch?.[1]) {
      fence = { char: fenceMatch[1][0] ?? '`', length: fenceMatch[1].length };
      continue;
    }

    const next = lines[i + 1];
    if (!inTable && line.includes('|') && next !== undefined && isTableSeparator(next)) {
      inTable = true;
      out.push(stripInline(tableRow(line)));
      i++;
      continue;
    }
    if (inTable && line.trim() && line.includes('|')) {
      out.push(stripInline(tableRow(line)));
      continue;
    }
    inTable = false;
    const plain = isFramedRow(line) ? stripInline(tableRow(line)) : stripBlock(line);
    if (plain !== null) out.push(plain);
  }

  return out
    .join('\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
