import { DAY_MS, isoDate } from '../../domain/calendar';
import { MINOR_PER_UNIT } from '../../domain/money';
import { EQUITY_SOURCES, type HistoryColumns, type TradePoints } from './money.service';

/*
 * The balance history's response as JSON bytes, written here rather than through the response schema or strings: a
 * history holds up to 200,000 points, and an object and a few strings per point cost more than computing them
 * (bench/money.bench.ts). Every byte is ASCII: times as `toISOString` writes them, amounts as `formatMinorUnits`
 * does (4 decimals), null or a word of the schema's enum; none needs escaping.
 */

/** The longest point: `{"time":"` … `"}` with a 24-character time, two amounts of up to 21 characters, a comma. */
const POINT_BYTES = 140;

/** Writes `bytes` at `at`; returns the offset after them (a loop: cheaper than a call into Buffer for a few bytes). */
function put(out: Uint8Array, at: number, bytes: Uint8Array): number {
  for (let k = 0; k < bytes.length; k++) out[at + k] = bytes[k]!;
  return at + bytes.length;
}

const TIME = Buffer.from('{"time":"');
const BALANCE = Buffer.from('","balance":"');
const NO_EQUITY = Buffer.from('","equity":null,"equitySource":null}');
const EQUITY = Buffer.from('","equity":"');
const SOURCES = EQUITY_SOURCES.map((source) =>
  Buffer.from(source === null ? '","equitySource":null}' : `","equitySource":"${source}"}`),
);

/** Writes the amount of `minor` minor units as formatMinorUnits does ('-1234.5600'); returns the offset after it. */
function amount(out: Uint8Array, at: number, minor: number): number {
  let o = at;
  if (minor < 0) out[o++] = 45; /* - */
  const magnitude = Math.abs(minor);
  let whole = Math.floor(magnitude / MINOR_PER_UNIT);
  // Below 2^31 in integer arithmetic (`| 0`): the digits of a double by float division and remainder cost more.
  const fraction = (magnitude - whole * MINOR_PER_UNIT) | 0;
  let digits = 1;
  for (let rest = whole; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  let k = digits - 1;
  for (; whole >= 2_147_483_648; k--) {
    const next = Math.floor(whole / 10);
    out[o + k] = 48 + whole - next * 10;
    whole = next;
  }
  for (let small = whole | 0; k >= 0; k--) {
    const next = (small / 10) | 0;
    out[o + k] = 48 + small - next * 10;
    small = next;
  }
  o += digits;
  out[o] = 46; /* . */
  out[o + 1] = 48 + ((fraction / 1000) | 0);
  out[o + 2] = 48 + (((fraction / 100) | 0) % 10);
  out[o + 3] = 48 + (((fraction / 10) | 0) % 10);
  out[o + 4] = 48 + (fraction % 10);
  return o + 5;
}

/** Two digits of `value` (0 … 99, an integer) at `at`. */
function two(out: Uint8Array, at: number, value: number): void {
  const tens = (value / 10) | 0;
  out[at] = 48 + tens;
  out[at + 1] = 48 + value - tens * 10;
}

/** Writes one point at `at`; returns the offset after it. `day` and `date` carry the last UTC day's text over. */
function point(
  out: Uint8Array,
  at: number,
  time: number,
  balance: number,
  equity: number,
  source: number,
  day: { number: number; date: Uint8Array },
): number {
  let o = put(out, at, TIME);
  // The date once per UTC day; the time of day by arithmetic.
  const pointDay = Math.floor(time / DAY_MS);
  if (pointDay !== day.number) {
    day.number = pointDay;
    day.date = Buffer.from(isoDate(pointDay), 'latin1');
  }
  o = put(out, o, day.date);
  const ms = (time - pointDay * DAY_MS) | 0; // 0 … 86,399,999
  out[o] = 84; /* T */
  two(out, o + 1, (ms / 3_600_000) | 0);
  out[o + 3] = 58; /* : */
  two(out, o + 4, ((ms / 60_000) | 0) % 60);
  out[o + 6] = 58;
  two(out, o + 7, ((ms / 1000) | 0) % 60);
  out[o + 9] = 46; /* . */
  out[o + 10] = 48 + (((ms % 1000) / 100) | 0);
  two(out, o + 11, ms % 100);
  out[o + 13] = 90; /* Z */
  o = put(out, o + 14, BALANCE);
  o = amount(out, o, balance);
  if (Number.isNaN(equity)) return put(out, o, NO_EQUITY);
  o = put(out, o, EQUITY);
  o = amount(out, o, equity);
  return put(out, o, SOURCES[source]!);
}

/**
 * Every point of a book with its equity unknown, each followed by a comma, and where each starts (one more: the
 * end): made once per book and data version, then copied by runs (a history at resolution `trade` is a run of them).
 */
function pointTexts(points: TradePoints): { bytes: Uint8Array; starts: Int32Array } {
  if (points.text) return points.text;
  const count = points.times.length;
  const bytes = Buffer.allocUnsafe(count * POINT_BYTES);
  const starts = new Int32Array(count + 1);
  const day = { number: Number.NaN, date: new Uint8Array(0) };
  let o = 0;
  for (let k = 0; k < count; k++) {
    starts[k] = o;
    o = point(bytes, o, points.times[k]!, points.balances[k]!, Number.NaN, 0, day);
    bytes[o++] = 44; /* , */
  }
  starts[count] = o;
  // A copy of the exact length: the rest of the first buffer is not kept with the book.
  const exact = new Uint8Array(o);
  exact.set(bytes.subarray(0, o));
  points.text = { bytes: exact, starts };
  return points.text;
}

/** The body of GET /api/v1/money/get_balance_history: `{success, message, data: {currency, points, equityComplete}}`. */
export function historyJson(message: string, history: HistoryColumns): Buffer {
  const head = Buffer.from(
    `{"success":true,"message":${JSON.stringify(message)},"data":{"currency":${JSON.stringify(history.currency)},"points":[`,
  );
  const tail = Buffer.from(`],"equityComplete":${history.equityComplete}}}`);
  const { length, equities } = history;
  // The points with their equity unknown, copied from the book's text when this history is a run of its points and
  // at least half their number (a short range of a large book is written point by point, no text made for it).
  const of = history.of && length * 2 >= history.of.points.times.length ? history.of : undefined;
  const texts = of ? pointTexts(of.points) : undefined;
  let size = head.length + length + tail.length;
  for (let i = 0; i < length; i++)
    size +=
      texts && of && Number.isNaN(equities[i]!)
        ? texts.starts[of.first + i + 1]! - texts.starts[of.first + i]! - 1
        : POINT_BYTES;
  const out = Buffer.allocUnsafe(size);
  let o = put(out, 0, head);
  const day = { number: Number.NaN, date: new Uint8Array(0) };
  for (let i = 0; i < length;) {
    if (i > 0) out[o++] = 44; /* , */
    if (texts && of && Number.isNaN(equities[i]!)) {
      // A run of points with their equity unknown: their text as the book keeps it, commas included but the last.
      let end = i + 1;
      while (end < length && Number.isNaN(equities[end]!)) end++;
      const from = texts.starts[of.first + i]!;
      const to = texts.starts[of.first + end]! - 1;
      out.set(texts.bytes.subarray(from, to), o);
      o += to - from;
      i = end;
      continue;
    }
    o = point(out, o, history.times[i]!, history.balances[i]!, equities[i]!, history.sources[i]!, day);
    i++;
  }
  o = put(out, o, tail);
  return out.subarray(0, o);
}
