/**
 * OANDA ids (trade, order, transaction) are digit strings. As strings "999" > "1000", so compare by length
 * first; leading zeros are stripped so that "007" and "7" are the same id.
 */
export function normaliseId(id: string): string {
  const stripped = id.replace(/^0+(?=\d)/, '');
  return stripped;
}

export function compareIds(a: string, b: string): number {
  const x = normaliseId(a);
  const y = normaliseId(b);
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

export const maxId = (a: string, b: string): string => (compareIds(a, b) >= 0 ? a : b);

/** The id as a number for an indexed numeric column; OANDA ids stay far below 2^53. */
export function idNumber(id: string): number {
  const n = Number(id);
  if (!Number.isSafeInteger(n)) throw new RangeError(`id ${id} is beyond the exact integer range`);
  return n;
}
