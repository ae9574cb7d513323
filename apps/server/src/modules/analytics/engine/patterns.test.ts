import { describe, expect, it } from 'vitest';
import { DEFAULT_COACH_THRESHOLDS, type CoachPattern } from '@pipsense/contract';
import { detectPatterns, type PatternTrade } from './patterns';

/*
 * Each detector on a generated book with planted patterns: the base book flags nothing, and with the plants each
 * detector flags exactly the planted trades. January 2026 (northern winter): Asia 22:00–08:00 UTC, London
 * 08:00–13:00, New York 13:00–22:00.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const START = Date.parse('2026-01-05T00:00:00Z');
/** One trade a day at 02:00 (Asia), 09:00 (London), 14:00 (New York) in turn. */
const BASE_HOURS = [2, 9, 14];
/** Wins and losses in turn: never two losses in a row, every session's running sum positive. */
const OUTCOMES = [100, -50, 100, 100, -50];

interface Plant {
  at: number;
  minutes?: number;
  pl?: number;
  units?: number;
  instrument?: string;
  currency?: string;
  risk?: number | null;
  capturePct?: number | null;
  stopWidened?: boolean;
  open?: boolean;
}

function trade(p: Plant): PatternTrade {
  const minutes = p.minutes ?? 60;
  const pl = p.pl ?? 100;
  return {
    instrument: p.instrument ?? 'EUR_USD',
    currency: p.currency ?? 'USD',
    units: p.units ?? 10_000,
    risk: p.risk ?? null,
    openTime: p.at,
    closeTime: p.open ? null : p.at + minutes * MIN,
    closed: !p.open,
    plMinor: p.open ? 0 : pl * 10_000,
    capturePct: p.capturePct ?? null,
    stopWidened: p.stopWidened ?? false,
  };
}

/** `days` base trades (the index of day d is d). */
function base(days: number): PatternTrade[] {
  return Array.from({ length: days }, (_, d) =>
    trade({ at: START + d * DAY + BASE_HOURS[d % 3]! * HOUR, pl: OUTCOMES[d % 5]! }),
  );
}
const at = (day: number, hour: number, minute = 0) => START + day * DAY + hour * HOUR + minute * MIN;
const DAYS = 40;

/** The book with the plants appended, and the plants' indexes. */
function book(plants: Plant[]): { trades: PatternTrade[]; planted: (k: number) => number } {
  const trades = [...base(DAYS), ...plants.map(trade)];
  return { trades, planted: (k) => DAYS + k };
}

const detect = (trades: PatternTrade[], timeZone = 'UTC', thresholds = DEFAULT_COACH_THRESHOLDS) =>
  detectPatterns(trades, thresholds, timeZone);

describe('behaviour pattern detectors', () => {
  it('flag nothing in the base book', () => {
    const flags = detect(base(DAYS));
    for (const list of Object.values(flags)) expect(list).toEqual([]);
  });

  it('revenge trading: larger in size (per instrument) or risk within the window after a loss', () => {
    // Day 1 (09:00, −50) closes at 10:00; day 4 (09:00, −50) too; day 2 (14:00, +100) at 15:00.
    const { trades, planted } = book([
      { at: at(1, 10, 10), units: 20_000 }, // 0: flagged, 10 min after a loss, twice the size
      { at: at(1, 10, 20), units: 10_000 }, // 1: the usual size: not flagged
      { at: at(1, 10, 45), units: 30_000 }, // 2: 45 min after: outside the window
      { at: at(2, 15, 5), units: 30_000 }, // 3: after a win: not flagged
      { at: at(4, 10, 15), instrument: 'XAU_USD', units: 20 }, // 4: 1.6 × its usual gold size: flagged
      { at: at(4, 10, 20), instrument: 'XAU_USD', units: 5 }, // 5: 0.4 × usual: not flagged
      { at: at(20, 20), pl: -50, risk: 10 }, // 6: a loss with a stop (closes 21:00)
      { at: at(20, 21, 5), risk: 30 }, // 7: same size, three times the risk: flagged
    ]);
    const flags = detect(trades);
    expect(flags.revenge_trading).toEqual([planted(0), planted(4), planted(7)]);
  });

  it('overtrading: the trades beyond the percentile of trades per local day', () => {
    const plants: Plant[] = [{ at: at(10, 16) }, { at: at(10, 17) }, { at: at(10, 18) }];
    const { trades, planted } = book(plants);
    // UTC: day 10 has its base trade (02:00) and three more: one a day is the 90th percentile, three beyond it.
    expect(detect(trades).overtrading).toEqual([planted(0), planted(1), planted(2)]);
    // Tokyo (+9): the plants fall on day 11 (01:00–03:00 local), before day 11's base trade (11:00 local).
    expect(detect(trades, 'Asia/Tokyo').overtrading).toEqual([11, planted(1), planted(2)].sort((a, b) => a - b));
  });

  it('size escalation: a larger trade after the set number of losses in a row', () => {
    const { trades, planted } = book([
      { at: at(12, 16), pl: -50, minutes: 10 }, // day 12's base trade (02:00) won: losses 1 and 2 follow
      { at: at(12, 17), pl: -50, minutes: 10 },
      { at: at(12, 19), units: 20_000 }, // 2: after two losses, larger: flagged
      { at: at(16, 20), units: 20_000 }, // 3: after day 16's single loss: not flagged
      { at: at(22, 16), pl: -50, minutes: 10 },
      { at: at(22, 17), pl: -50, minutes: 10 },
      { at: at(22, 19), units: 10_000 }, // 6: after two losses, the same size: not flagged
    ]);
    expect(detect(trades).size_escalation).toEqual([planted(2)]);
  });

  it('off-session: a session whose earlier closed trades lost, judged before the trade opened', () => {
    const losers: Plant[] = Array.from({ length: 10 }, (_, d) => ({ at: at(d, 5), pl: -50, currency: 'EUR' }));
    const { trades, planted } = book([
      ...losers,
      { at: at(20, 5), pl: 100, currency: 'EUR' }, // 10: Asia, ten earlier EUR losers: flagged though it won
      { at: at(21, 5), pl: 100, currency: 'EUR' }, // 11: still flagged (the sum is still negative)
      { at: at(21, 10), currency: 'EUR' }, // 12: London: no earlier EUR trade there
      { at: at(22, 5), currency: 'EUR', open: true }, // 13: open, Asia: flagged
    ]);
    expect(detect(trades).off_session).toEqual([planted(10), planted(11), planted(13)]);
    // With twenty earlier trades needed, none is judged yet.
    expect(detect(trades, 'UTC', { ...DEFAULT_COACH_THRESHOLDS, offSessionMinTrades: 20 }).off_session).toEqual([]);
  });

  it('holding losers: losers held the ratio times the winners’ median or longer', () => {
    const { trades, planted } = book([
      { at: at(30, 16), pl: -50, minutes: 120 }, // flagged: 2 × the 60-minute median
      { at: at(31, 16), pl: -50, minutes: 90 }, // flagged: exactly 1.5 ×
      { at: at(32, 16), pl: -50, minutes: 80 }, // not
      { at: at(33, 16), pl: 100, minutes: 300 }, // a winner held long: not a loser
    ]);
    expect(detect(trades).holding_losers).toEqual([planted(0), planted(1)]);
  });

  it('stop moved away and early exit', () => {
    const { trades, planted } = book([
      { at: at(30, 16), stopWidened: true },
      { at: at(31, 16), capturePct: 20 }, // a winner that kept 20 %: flagged
      { at: at(32, 16), capturePct: 50 },
      { at: at(33, 16), capturePct: 10, pl: -50 }, // a loser is no early exit
    ]);
    const flags = detect(trades);
    expect(flags.stop_moved_away).toEqual([planted(0)]);
    expect(flags.early_exit).toEqual([planted(1)]);
  });

  it('flag exactly the planted trades across generated books', () => {
    // Random day layouts: each pattern's plants found, and nothing else flagged for it.
    for (let seed = 1; seed <= 5; seed++) {
      let s = seed;
      const rand = () => (s = (s * 48271) % 2147483647) / 2147483647;
      const days = Array.from({ length: 6 }, () => 5 + Math.floor(rand() * 30));
      const plants: Plant[] = [];
      const expected: Partial<Record<CoachPattern, number[]>> = { stop_moved_away: [], early_exit: [] };
      for (const day of new Set(days)) {
        expected.stop_moved_away!.push(DAYS + plants.length);
        plants.push({ at: at(day, 18), stopWidened: true });
        expected.early_exit!.push(DAYS + plants.length);
        plants.push({ at: at(day, 20), capturePct: 1 + rand() * 28 });
      }
      const flags = detect([...base(DAYS), ...plants.map(trade)]);
      expect(flags.stop_moved_away).toEqual(expected.stop_moved_away);
      expect(flags.early_exit).toEqual(expected.early_exit);
      expect(flags.revenge_trading).toEqual([]);
      expect(flags.holding_losers).toEqual([]);
    }
  });
});
