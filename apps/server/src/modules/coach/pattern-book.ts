import { isPlainDecimal } from '../../domain/decimal';
import { DAY_MS, instantOf } from '../../domain/calendar';
import { minorUnitsOf } from '../../domain/money';
import { mfeCapturePct, rMultipleOf, stopMovedAway } from '../../domain/risk';
import type { PatternColumns } from '../analytics';
import type { PatternRow } from '../trade-views';

/**
 * The trader's book as the behaviour patterns keep it (docs/coach.md, Patterns): one array per field, no object per
 * trade. Built row by row from the read side's pattern rows, on the request's thread or, for a large book on SQLite,
 * in parts on threads of their own (pattern-book.worker.ts, docs/decisions/026-pattern-book-on-threads.md), then
 * joined.
 */

/** A repeated text column (account key, platform, mode, state): each trade's number, the texts numbered. */
export interface CodedColumn {
  names: string[];
  codes: Int32Array;
}

/** What the range filter and the cost read beside the detectors' columns; a part of a book, or a whole one. */
export interface PatternBook {
  count: number;
  accountKey: CodedColumn;
  platform: CodedColumn;
  mode: CodedColumn;
  state: CodedColumn;
  tradeId: string[];
  /** The instruments, numbered as `columns.instrument` numbers them. */
  instruments: string[];
  /** The account currencies, numbered as `columns.currency` numbers them. */
  currencies: string[];
  short: Uint8Array;
  /** The UTC day (days since 1970-01-01) a trade is booked on once closed: its close, else its open. */
  bookedDay: Int32Array;
  /** R in hundredths (exact integer); NaN without R. */
  rHundredths: Float64Array;
  /** The decimals of each closed trade's P/L text; −1 when its minor units are not exactly its amount. */
  plScale: Int8Array;
  /** The P/L text of the closed trades whose minor units are not exactly their amount, by index. */
  irregularPL: Map<number, string>;
  columns: PatternColumns;
}

type Typed = Int32Array | Float64Array | Uint8Array | Int8Array;

const num = (text: string | null): number | null => (isPlainDecimal(text) ? Number(text) : null);

/**
 * The decimals of a decimal text in the form the exact sums read ('-12.50': a sign, digits, a point and digits), when
 * they are at most the 4 of minor units (domain/money.ts); else −1.
 */
function scaleOf(text: string): number {
  let i = text.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  const digits = i;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
  }
  if (i === digits) return -1;
  if (i === text.length) return 0;
  if (text.charCodeAt(i) !== 46 /* . */) return -1;
  const scale = text.length - i - 1;
  if (scale < 1 || scale > 4) return -1;
  for (i++; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
  }
  return scale;
}

/** Numbers texts as they come; a run of equal texts (one account's trades) skips the map. */
function numbering() {
  const names = new Map<string, number>();
  let last: string | undefined;
  let lastCode = -1;
  return {
    names,
    of(text: string): number {
      if (text === last) return lastCode;
      let code = names.get(text);
      if (code === undefined) names.set(text, (code = names.size));
      last = text;
      lastCode = code;
      return code;
    },
  };
}

/** A column of numbers while its length is not known: a typed array grown by doubling (no array of boxed values). */
class Growing {
  private values = new Float64Array(1024);
  private length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const more = new Float64Array(this.length * 2);
      more.set(this.values);
      this.values = more;
    }
    this.values[this.length++] = value;
  }

  /** The values as `Kind` of their exact length (Int32Array, Uint8Array, … truncate as their constructors do). */
  as<T extends Typed>(Kind: { from(values: ArrayLike<number>): T }): T {
    return Kind.from(this.values.subarray(0, this.length));
  }
}

/**
 * A builder of one book (or one part of it) from pattern rows in the book's order: `add` takes each row as it comes
 * (into typed arrays grown as it goes); nothing of a row but its trade id outlives it.
 * `currencyOf`: each account's currency by key; `stops`: the stop levels of each trade's stop-loss orders in the
 * order placed, by `<account key> <trade id>`.
 */
export function createBookBuilder(currencyOf: ReadonlyMap<string, string>, stops: ReadonlyMap<string, string[]>) {
  const coded = {
    accountKey: numbering(),
    platform: numbering(),
    mode: numbering(),
    state: numbering(),
    instrument: numbering(),
    currency: numbering(),
  };
  const codes = {
    accountKey: new Growing(),
    platform: new Growing(),
    mode: new Growing(),
    state: new Growing(),
    instrument: new Growing(),
    currency: new Growing(),
  };
  const tradeId: string[] = [];
  const irregularPL = new Map<number, string>();
  const numbers = {
    units: new Growing(),
    risk: new Growing(),
    openTime: new Growing(),
    closeTime: new Growing(),
    closed: new Growing(),
    plMinor: new Growing(),
    plScale: new Growing(),
    capturePct: new Growing(),
    stopWidened: new Growing(),
    short: new Growing(),
    rHundredths: new Growing(),
    bookedDay: new Growing(),
  };
  const anyStops = stops.size > 0;

  function add(row: PatternRow): void {
    const [accountKey, id, instrument, price, units, realizedPL, state, open, close, averageClose, stop, mfe] = row;
    const i = tradeId.length;
    const short = units.trim().startsWith('-');
    const absUnits = Math.abs(Number(units)) || 0;
    const closed = state === 'CLOSED';
    tradeId.push(id);
    codes.accountKey.push(coded.accountKey.of(accountKey));
    codes.platform.push(coded.platform.of(row[12]));
    codes.mode.push(coded.mode.of(row[13]));
    codes.state.push(coded.state.of(state));
    codes.instrument.push(coded.instrument.of(instrument));
    codes.currency.push(coded.currency.of(currencyOf.get(accountKey) ?? ''));
    numbers.units.push(absUnits);
    numbers.short.push(short ? 1 : 0);
    const opened = instantOf(open);
    const closedAt = close === null ? Number.NaN : instantOf(close);
    numbers.openTime.push(opened);
    numbers.closeTime.push(closedAt);
    numbers.closed.push(closed ? 1 : 0);
    numbers.bookedDay.push(Math.floor((close === null ? opened : closedAt) / DAY_MS));
    // R and the risk only where there is a first stop (domain/risk.ts: none without one).
    const entry = stop !== null || mfe !== null || anyStops ? num(price) : null;
    let r = Number.NaN;
    let risk = Number.NaN;
    if (stop !== null) {
      if (closed) {
        const rMultiple = rMultipleOf({
          instrument,
          initialUnits: units,
          price,
          averageClosePrice: averageClose,
          initialStopLossPrice: stop,
        });
        if (rMultiple !== null) r = Math.round(rMultiple * 100);
      }
      // Only compared with the trader's other trades on the instrument: the distance in price as a number, against
      // the trade (domain/risk.ts: a first stop at or beyond the entry on the profit side risks nothing).
      const firstStop = num(stop);
      const against = entry !== null && firstStop !== null ? (short ? firstStop - entry : entry - firstStop) : 0;
      if (against > 0) risk = against * absUnits;
    }
    numbers.rHundredths.push(r);
    numbers.risk.push(risk);
    let plMinor = 0;
    let scale = 0;
    let capture = Number.NaN;
    if (closed) {
      plMinor = isPlainDecimal(realizedPL) ? minorUnitsOf(realizedPL) : 0;
      scale = scaleOf(realizedPL);
      if (scale < 0) irregularPL.set(i, realizedPL);
      if (plMinor > 0 && entry !== null && mfe !== null) {
        const exit = num(averageClose);
        const best = num(mfe);
        capture = (exit !== null && best !== null ? mfeCapturePct(entry, exit, best, !short) : null) ?? Number.NaN;
      }
    }
    numbers.plMinor.push(plMinor);
    numbers.plScale.push(scale);
    numbers.capturePct.push(capture);
    const levels = entry !== null && anyStops ? stops.get(`${accountKey} ${id}`) : undefined;
    const widened =
      levels !== undefined &&
      levels.length > 1 &&
      stopMovedAway(
        entry!,
        !short,
        levels.flatMap((s) => (isPlainDecimal(s) ? [Number(s)] : [])),
      );
    numbers.stopWidened.push(widened ? 1 : 0);
  }

  const column = (name: keyof typeof codes): CodedColumn => ({
    names: [...coded[name].names.keys()],
    codes: codes[name].as(Int32Array),
  });

  function finish(): PatternBook {
    const instrument = column('instrument');
    const currency = column('currency');
    const columns: PatternColumns = {
      count: tradeId.length,
      instrument: instrument.codes,
      currency: currency.codes,
      units: numbers.units.as(Float64Array),
      risk: numbers.risk.as(Float64Array),
      openTime: numbers.openTime.as(Float64Array),
      closeTime: numbers.closeTime.as(Float64Array),
      closed: numbers.closed.as(Uint8Array),
      plMinor: numbers.plMinor.as(Float64Array),
      capturePct: numbers.capturePct.as(Float64Array),
      stopWidened: numbers.stopWidened.as(Uint8Array),
    };
    return {
      count: columns.count,
      accountKey: column('accountKey'),
      platform: column('platform'),
      mode: column('mode'),
      state: column('state'),
      tradeId,
      instruments: instrument.names,
      currencies: currency.names,
      short: numbers.short.as(Uint8Array),
      bookedDay: numbers.bookedDay.as(Int32Array),
      rHundredths: numbers.rHundredths.as(Float64Array),
      plScale: numbers.plScale.as(Int8Array),
      irregularPL,
      columns,
    };
  }

  return { add, finish };
}

/** The buffers of a part's typed arrays: handed over, not copied, when a thread posts the part back. */
export function bookBuffers(book: PatternBook): ArrayBuffer[] {
  const { columns: c } = book;
  return [
    book.accountKey.codes,
    book.platform.codes,
    book.mode.codes,
    book.state.codes,
    book.short,
    book.bookedDay,
    book.rHundredths,
    book.plScale,
    c.instrument,
    c.currency,
    c.units,
    c.risk,
    c.openTime,
    c.closeTime,
    c.closed,
    c.plMinor,
    c.capturePct,
    c.stopWidened,
  ].map((a) => a.buffer as ArrayBuffer);
}

/** The arrays one after another (`make` gives an empty array of the total length). */
function concat<T extends Typed>(arrays: T[], make: (length: number) => T): T {
  if (arrays.length === 1) return arrays[0]!;
  const out = make(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

/** Coded columns of consecutive parts as one: every part's numbers renumbered into one list of names. */
function joinCoded(parts: Array<{ names: string[]; codes: Int32Array }>): { names: string[]; codes: Int32Array } {
  if (parts.length === 1) return parts[0]!;
  const numbered = new Map<string, number>();
  const out = new Int32Array(parts.reduce((n, p) => n + p.codes.length, 0));
  let at = 0;
  for (const part of parts) {
    const to = Int32Array.from(part.names, (name) => {
      let code = numbered.get(name);
      if (code === undefined) numbered.set(name, (code = numbered.size));
      return code;
    });
    for (let i = 0; i < part.codes.length; i++) out[at + i] = to[part.codes[i]!]!;
    at += part.codes.length;
  }
  return { names: [...numbered.keys()], codes: out };
}

/** Consecutive parts of a book (in the book's order) as the whole book. */
export function joinBooks(parts: PatternBook[]): PatternBook {
  if (parts.length === 1) return parts[0]!;
  const f64 = (length: number) => new Float64Array(length);
  const u8 = (length: number) => new Uint8Array(length);
  const all = <K extends 'units' | 'risk' | 'openTime' | 'closeTime' | 'plMinor' | 'capturePct'>(key: K) =>
    parts.map((p) => p.columns[key]);
  const flags = (key: 'closed' | 'stopWidened') => parts.map((p) => p.columns[key]);
  const instrument = joinCoded(parts.map((p) => ({ names: p.instruments, codes: p.columns.instrument })));
  const currency = joinCoded(parts.map((p) => ({ names: p.currencies, codes: p.columns.currency })));
  const irregularPL = new Map<number, string>();
  let offset = 0;
  for (const part of parts) {
    for (const [i, text] of part.irregularPL) irregularPL.set(offset + i, text);
    offset += part.count;
  }
  const columns: PatternColumns = {
    count: offset,
    instrument: instrument.codes,
    currency: currency.codes,
    units: concat(all('units'), f64),
    risk: concat(all('risk'), f64),
    openTime: concat(all('openTime'), f64),
    closeTime: concat(all('closeTime'), f64),
    closed: concat(flags('closed'), u8),
    plMinor: concat(all('plMinor'), f64),
    capturePct: concat(all('capturePct'), f64),
    stopWidened: concat(flags('stopWidened'), u8),
  };
  return {
    count: offset,
    accountKey: joinCoded(parts.map((p) => p.accountKey)),
    platform: joinCoded(parts.map((p) => p.platform)),
    mode: joinCoded(parts.map((p) => p.mode)),
    state: joinCoded(parts.map((p) => p.state)),
    tradeId: ([] as string[]).concat(...parts.map((p) => p.tradeId)),
    instruments: instrument.names,
    currencies: currency.names,
    short: concat(
      parts.map((p) => p.short),
      u8,
    ),
    bookedDay: concat(
      parts.map((p) => p.bookedDay),
      (length) => new Int32Array(length),
    ),
    rHundredths: concat(
      parts.map((p) => p.rHundredths),
      f64,
    ),
    plScale: concat(
      parts.map((p) => p.plScale),
      (length) => new Int8Array(length),
    ),
    irregularPL,
    columns,
  };
}
