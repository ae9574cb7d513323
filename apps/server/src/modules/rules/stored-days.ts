import { instantOf, weekdayOfDay } from '../../domain/calendar';
import {
  DayBoundary,
  boundaryOf,
  evaluateRules,
  type CarriedEvaluation,
  type DayRecord,
  type RuleBreak,
  type RuleCarriedState,
  type RuleEvaluation,
  type RuleInputs,
  type RuleSet,
  type RuleStatus,
} from './engine';
import type { RuleDayRow, RuleDayStore } from './day-store';

/**
 * A rule set's answers from its stored day records (docs/rules.md, Status). The completed days are stored with the
 * state the engine carries into each and a digest of the inputs it read for the day; the current day's answer is kept
 * on the set's state row until the next instant something could happen in it.
 *
 * - Current: the user's data version (db/data-versions.ts, the money module's key: it moves with every write of
 *   trades, accounts or cash flows) and the set's `updated_at` are those the rows were made at, and the instant asked
 *   is before the next reset, the next weekly close and the next input time after the computation: the stored status
 *   answers without reading any input.
 * - Otherwise the inputs are read, each completed day's digest compared with the stored one, and the pass resumed
 *   from the state carried into the first day that differs (engine, `resumeFrom`): a change today recomputes today.
 * - Never stored: an answer while the equity is being rebuilt (`equityComplete` false with an equity source), and
 *   answers at an instant asked for (`at`), which the whole pass gives.
 */

/** What the state row keeps of the current day. */
interface Today {
  status: RuleStatus;
  record: DayRecord;
  breaks: RuleBreak[];
  carried: RuleCarriedState | null;
}

/** The weekly close of the forex market (engine, no_weekend_holding): a position held over it breaks at it. */
const WEEKLY_CLOSE = new DayBoundary('17:00', 'America/New_York');
const FRIDAY = 5;

const SEED_A = 0x811c9dc5;
const SEED_B = 0x9747b28c;

/** FNV-1a of a text, 32 bits. */
function fnv(text: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The digest of each completed day's inputs (days `first` … `last − 1`), as the engine reads them: a trade's open on
 * its open day, each exit and its close on theirs, cash flows and equity readings on theirs. A time at a reset counts
 * for the day it ends (where a booking at the reset belongs; a reading there is read by the next one, which is later:
 * the earlier day is the safe one). Also the first input time after `at`: until then nothing new can happen.
 */
function dayDigests(
  inputs: RuleInputs,
  boundary: DayBoundary,
  first: number,
  last: number,
  at: number,
): { digests: string[]; nextInput: number } {
  const count = last - first;
  const resets = new Float64Array(count + 1);
  for (let i = 0; i <= count; i++) resets[i] = boundary.resetOf(first + i + 1);
  const a = new Uint32Array(count).fill(SEED_A);
  const b = new Uint32Array(count).fill(SEED_B);
  let nextInput = Number.POSITIVE_INFINITY;
  const add = (time: string | null, text: string) => {
    if (time === null) return;
    const t = instantOf(time);
    if (t > at && t < nextInput) nextInput = t;
    // The day whose end is the first at or after t: resets[i] = R_{first+i+1}.
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (resets[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    if (lo >= count) return; // the current day: never stored
    a[lo] = Math.imul(a[lo]! ^ fnv(text, SEED_A), 0x01000193) >>> 0;
    b[lo] = Math.imul(b[lo]! ^ fnv(text, SEED_B), 0x5bd1e995) >>> 0;
  };
  for (const t of inputs.trades) {
    add(t.openTime, `o|${t.key}|${t.instrument}|${t.openTime}|${t.riskAtOpen}`);
    if (t.exits && t.exits.length > 0) {
      const all = JSON.stringify(t.exits);
      for (const exit of t.exits) add(exit.time, `x|${t.key}|${t.openTime}|${t.closeTime}|${all}`);
    }
    add(t.closeTime, `c|${t.key}|${t.openTime}|${t.closeTime}|${t.realizedPL}`);
  }
  for (const f of inputs.cashFlows) add(f.time, `f|${f.time}|${f.type}|${f.amount}`);
  if (!inputs.equity.equityUnknown) for (const p of inputs.equity.points) add(p.time, `p|${p.time}|${p.equity}`);
  const digests: string[] = [];
  for (let i = 0; i < count; i++) digests.push(`${a[i]!.toString(36)}.${b[i]!.toString(36)}`);
  return { digests, nextInput };
}

/** The next weekly close after `at`. */
function nextWeeklyClose(at: number): number {
  for (let day = WEEKLY_CLOSE.dayOf(at); ; day++) {
    const close = WEEKLY_CLOSE.resetOf(day);
    if (close > at && weekdayOfDay(day) === FRIDAY) return close;
  }
}

export function createStoredDays(store: RuleDayStore) {
  /** The set's stored state, when it answers for this data version and this version of the set. */
  async function currentState(setId: string, stamp: string, version: string) {
    const state = await store.state(setId);
    return state && state.set_stamp === stamp && state.data_version === version ? state : undefined;
  }

  return {
    /** The stored status, when it is current at `at` (no input read); undefined otherwise. */
    async status(setId: string, stamp: string, version: string, at: string): Promise<RuleStatus | undefined> {
      const state = await currentState(setId, stamp, version);
      if (!state?.today || state.valid_until === null) return undefined;
      if (at < state.computed_at || at >= state.valid_until) return undefined;
      return (JSON.parse(state.today) as Today).status;
    },

    /**
     * The answer at `at` (now): from the stored days when current, else resumed from the first day whose inputs
     * changed, and stored. `version` must be read before the inputs (a write between them is then seen next time).
     */
    async evaluate(
      ids: { setId: string; userId: string; stamp: string },
      set: RuleSet,
      version: string,
      at: string,
      readInputs: () => Promise<RuleInputs>,
    ): Promise<RuleEvaluation> {
      const { setId, userId, stamp } = ids;
      const state = await currentState(setId, stamp, version);
      if (state?.today && state.valid_until !== null && at >= state.computed_at && at < state.valid_until) {
        const today = JSON.parse(state.today) as Today;
        const rows = await store.records(setId);
        return {
          status: today.status,
          days: [...rows.map((r) => JSON.parse(r.record) as DayRecord), today.record],
          breaks: [...rows.flatMap((r) => JSON.parse(r.breaks) as RuleBreak[]), ...today.breaks],
        };
      }

      const inputs = await readInputs();
      // While the equity is rebuilt it is not yet the account's: answered, never stored.
      if (!inputs.equity.equityComplete && !inputs.equity.equityUnknown) return evaluateRules(set, inputs, at);
      const boundary = boundaryOf(set);
      const atMs = instantOf(at);
      const first = boundary.dayOf(instantOf(set.startTime));
      const last = boundary.dayOf(atMs);
      const { digests, nextInput } = dayDigests(inputs, boundary, first, last, atMs);
      const inputsDigest = `${inputs.currency}|${inputs.equity.equityUnknown}`;

      // The first completed day whose inputs are not those it was stored with.
      let from = first;
      let carried: RuleCarriedState | null = null;
      const prior = await store.state(setId);
      if (prior && prior.set_stamp === stamp && prior.inputs_digest === inputsDigest) {
        const stored = await store.digests(setId);
        let d = first;
        for (const row of stored) {
          if (d >= last || row.day !== d || row.digest !== digests[d - first]) break;
          d++;
        }
        if (d > first) {
          const text =
            d === (prior.through_day ?? first - 1) + 1 && d <= last
              ? JSON.stringify((JSON.parse(prior.today ?? 'null') as Today | null)?.carried ?? null)
              : await store.carried(setId, d);
          carried = text === null ? null : (JSON.parse(text) as RuleCarriedState | null);
          if (carried !== null && carried.day === d) from = d;
        }
      }

      let result: CarriedEvaluation;
      let given = 0;
      if (from === first) result = evaluateRules(set, inputs, at, { carry: true });
      else {
        const before = await store.records(setId, from);
        const breaks = before.flatMap((r) => JSON.parse(r.breaks) as RuleBreak[]);
        given = breaks.length;
        result = evaluateRules(set, inputs, at, {
          carry: true,
          resumeFrom: { state: carried!, days: before.map((r) => JSON.parse(r.record) as DayRecord), breaks },
        });
      }

      const counts = result.breakCounts!;
      const states = result.carried!;
      const rows: RuleDayRow[] = [];
      // The breaks of the days before `from` were given in; counts[k] is the number at the end of day from + k.
      let previousCount = given;
      for (let d = from; d < last; d++) {
        const k = d - from;
        rows.push({
          rule_set_id: setId,
          user_id: userId,
          day: d,
          date: result.days[d - first]!.date,
          record: JSON.stringify(result.days[d - first]),
          breaks: JSON.stringify(result.breaks.slice(previousCount, counts[k])),
          carried: states[k] === null ? null : JSON.stringify(states[k]),
          digest: digests[d - first]!,
        });
        previousCount = counts[k]!;
      }
      const today: Today = {
        status: result.status,
        record: result.days.at(-1)!,
        breaks: result.breaks.slice(previousCount),
        carried: states.at(-1)!,
      };
      const validUntil = Math.min(boundary.resetOf(last + 1), nextWeeklyClose(atMs), nextInput);
      // Best effort: another answer storing the same set at once (PostgreSQL: a key it inserted first) loses
      // nothing, its rows are those of the same inputs or of newer ones, and the next answer checks them again.
      await store
        .replace(setId, from, rows, {
          rule_set_id: setId,
          user_id: userId,
          set_stamp: stamp,
          data_version: version,
          inputs_digest: inputsDigest,
          through_day: last - 1,
          today: JSON.stringify(today),
          valid_until: new Date(validUntil).toISOString(),
          computed_at: at,
        })
        .catch(() => undefined);
      return { status: result.status, days: result.days, breaks: result.breaks };
    },

    forget: (setId: string) => store.forget(setId),
  };
}
