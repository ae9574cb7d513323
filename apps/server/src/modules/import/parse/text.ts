/*
 * Shared low-level readers for every report parser: bytes → text by byte-order mark / content, report numbers →
 * exact decimal strings, MetaTrader times → `YYYY-MM-DDTHH:mm:ss`. No regex here may backtrack: they run once per
 * cell of files with millions of cells.
 */

export type TextEncodingName = 'utf-16le' | 'utf-16be' | 'utf-8' | 'windows-1252';

/** The encoding of a text file: a BOM first, then NULs at odd offsets (UTF-16LE without BOM), then strict UTF-8. */
function sniffEncoding(bytes: Uint8Array): TextEncodingName {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes.length >= 4) {
    // '<\0h\0' — an ASCII character followed by NUL, twice: UTF-16LE without a mark; the reverse for big-endian.
    if (bytes[0] !== 0 && bytes[1] === 0 && bytes[2] !== 0 && bytes[3] === 0) return 'utf-16le';
    if (bytes[0] === 0 && bytes[1] !== 0 && bytes[2] === 0 && bytes[3] !== 0) return 'utf-16be';
  }
  return 'utf-8';
}

/* windows-1252 at 0x80–0x9F (Node's TextDecoder treats the label as ISO-8859-1 there); undefined bytes stay. */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = new TextDecoder('latin1').decode(bytes);
  return /[\u0080-\u009f]/.test(latin1)
    ? latin1.replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!)
    : latin1;
}

/** Decodes a text file (report, CSV, XML part): UTF-16 by mark or NULs, else strict UTF-8, else windows-1252. */
export function decodeText(bytes: Uint8Array): { text: string; encoding: TextEncodingName } {
  let encoding = sniffEncoding(bytes);
  let text: string;
  if (encoding === 'utf-8') {
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      encoding = 'windows-1252';
      text = decodeWindows1252(bytes);
    }
  } else {
    text = new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes);
  }
  // Some MT5 builds write the byte-order mark twice: strip every leading U+FEFF.
  let start = 0;
  while (text.charCodeAt(start) === 0xfeff) start++;
  return { text: start ? text.slice(start) : text, encoding };
}

const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;

/**
 * A report number → an exact decimal string, or null when the text is not one. Spaces and U+00A0 (thousands
 * separators) are removed; `decimalComma` turns ',' into the decimal point (and drops '.' as a thousands separator),
 * otherwise ',' is dropped as a thousands separator. A leading '+' is dropped.
 */
export function toDecimal(text: string, decimalComma = false): string | null {
  if (PLAIN_DECIMAL.test(text)) return text; // the common case: nothing to remove
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0xa0 || c === 0x202f || c === 0x09 || c === 0x27 /* ' Swiss thousands */) continue;
    if (c === 0x2c /* , */) {
      if (decimalComma) out += '.';
      continue;
    }
    if (c === 0x2e /* . */ && decimalComma) continue;
    if (c === 0x2b /* + */ && out === '') continue;
    if (c === 0x2212 /* − minus sign */) {
      out += '-';
      continue;
    }
    out += text[i];
  }
  if (out.startsWith('.')) out = `0${out}`;
  else if (out.startsWith('-.')) out = `-0${out.slice(1)}`;
  return PLAIN_DECIMAL.test(out) ? out : null;
}

/** A cell's text cleaned: U+00A0 → space, runs of white space collapsed, trimmed. */
export function cleanText(text: string): string {
  let needs = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xa0 || c === 0x0a || c === 0x0d || c === 0x09 || (c === 0x20 && text.charCodeAt(i + 1) === 0x20)) {
      needs = true;
      break;
    }
  }
  const out = needs ? text.replace(/[\s\u00a0]+/g, ' ') : text;
  return out.trim();
}

const isDigit = (c: number) => c >= 48 && c <= 57;

function digitsAt(text: string, start: number, count: number): boolean {
  for (let i = start; i < start + count; i++) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
}

/**
 * A MetaTrader time `yyyy.MM.dd HH:mm[:ss]` (also `-` or `/` between the date parts, or `T` before the time) →
 * `YYYY-MM-DDTHH:mm:ss`; null when it is not one.
 */
export function mtTime(text: string): string | null {
  const t = text.trim();
  if (t.length !== 16 && t.length !== 19) return null;
  if (!digitsAt(t, 0, 4) || !digitsAt(t, 5, 2) || !digitsAt(t, 8, 2) || !digitsAt(t, 11, 2) || !digitsAt(t, 14, 2))
    return null;
  const s1 = t[4];
  if ((s1 !== '.' && s1 !== '-' && s1 !== '/') || t[7] !== s1) return null;
  if ((t[10] !== ' ' && t[10] !== 'T') || t[13] !== ':') return null;
  let seconds = '00';
  if (t.length === 19) {
    if (t[16] !== ':' || !digitsAt(t, 17, 2)) return null;
    seconds = t.slice(17, 19);
  }
  const iso = `${t.slice(0, 4)}-${t.slice(5, 7)}-${t.slice(8, 10)}T${t.slice(11, 13)}:${t.slice(14, 16)}:${seconds}`;
  return validDateTime(iso) ? iso : null;
}

/** `YYYY-MM-DDTHH:mm:ss` names a real calendar time (no 2024-02-30, no 25:00). */
export function validDateTime(iso: string): boolean {
  const y = Number(iso.slice(0, 4));
  const m = Number(iso.slice(5, 7));
  const d = Number(iso.slice(8, 10));
  const h = Number(iso.slice(11, 13));
  const mi = Number(iso.slice(14, 16));
  const s = Number(iso.slice(17, 19));
  if (m < 1 || m > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= days[m - 1]!;
}

/** 1-based line numbers of offsets read in increasing order, counting newlines only once over the text. */
export class LineCounter {
  private offset = 0;
  private line = 1;
  constructor(private readonly text: string) {}
  at(index: number): number {
    if (index < this.offset) {
      this.offset = 0;
      this.line = 1;
    }
    const text = this.text;
    let i = text.indexOf('\n', this.offset);
    while (i !== -1 && i < index) {
      this.line++;
      i = text.indexOf('\n', i + 1);
    }
    this.offset = index;
    return this.line;
  }
}
