import { describe, expect, it } from 'vitest';
import { REPLAY_EVENT_KINDS } from '@pipsense/contract';
import {
  markerSpots,
  REPLAY_EVENT_LABELS,
  replayEventLabel,
  replayFrame,
  replayKeyAction,
  replayModel,
  replayRange,
  startIndex,
} from './replay-frame';
import { replayFixture } from './replay-fixture';

const model = replayModel(replayFixture(), (ms) => ms / 1000);
const titles = (index: number) => replayFrame(model, index).lines.map((l) => `${l.title} ${l.price}`);

describe('replay frames', () => {
  it('starts just before the entry, with nothing entered yet', () => {
    expect(startIndex(model)).toBe(1);
    const frame = replayFrame(model, 1);
    expect(frame.bars).toHaveLength(2);
    expect(frame.phase).toBe('before');
    expect(frame.lines).toEqual([]);
    expect(frame.pl).toBeNull();
  });

  it('shows the entry, stop and target from the entry candle, the stop where it stands after it moved', () => {
    expect(titles(2)).toEqual(['Entry 1.1', 'SL 1.099', 'TP 1.103']);
    expect(titles(4)).toEqual(['Entry 1.1', 'SL 1.099', 'TP 1.103']);
    // The stop moved in the sixth candle (index 5): from there on it stands at break-even.
    expect(titles(5)).toEqual(['Entry 1.1', 'SL 1.1', 'TP 1.103']);
    expect(replayFrame(model, 5).markers.map((m) => m.text)).toEqual(['Buy 1.10000', 'SL → 1.10000']);
    expect(titles(8)).toEqual(['Entry 1.1', 'Exit 1.102']);
  });

  it('open P/L at the current close in pips, money and R; MAE and MFE so far', () => {
    const third = replayFrame(model, 3); // close 1.09950, low 1.09920
    expect(third.phase).toBe('open');
    expect(third.pl).toEqual({ pips: -5, money: '-5.00', r: -0.5 });
    expect(third.mae).toEqual({ pips: -8, money: '-8.00', r: -0.8 });
    expect(third.mfe?.pips).toBe(3);
    const closed = replayFrame(model, 9);
    expect(closed.phase).toBe('closed');
    // After the exit the result stays the exit's, and the excursions stop at the exit's candle.
    expect(closed.pl).toEqual({ pips: 20, money: '20.00', r: 2 });
    expect(closed.mfe?.pips).toBe(22);
    expect(closed.happened.map((e) => e.kind)).toEqual(['entry', 'stop_set', 'take_profit_set', 'stop_moved', 'exit']);
  });

  it('after a partial close counts the units still open, and what the partial closes realized apart', () => {
    // 4,000 of the 10,000 units closed at 1.10150 in the seventh candle (index 6), the 6,000 left at the exit.
    const events = replayFixture().events.map((e) => (e.kind === 'exit' ? { ...e, units: '6000' } : e));
    events.splice(4, 0, {
      time: '2026-11-24T09:06:20.000000000Z',
      kind: 'partial_close',
      price: '1.10150',
      units: '4000',
    });
    const partial = replayModel(replayFixture({ events }), (ms) => ms / 1000);

    const before = replayFrame(partial, 5); // close 1.10100: 10 pips on all 10,000 units (1.00 USD a pip)
    expect(before.openUnits).toBe('10000');
    expect(before.pl).toEqual({ pips: 10, money: '10.00', r: 1 });
    expect(before.realized).toBeNull();

    const at = replayFrame(partial, 6); // close 1.10150, the partial close in this candle
    expect(at.openUnits).toBe('6000');
    // 15 pips a unit on 6,000 units: 15 × 0.60 = 9.00 USD, 1.5 R × 0.6 = 0.9 R.
    expect(at.pl).toEqual({ pips: 15, money: '9.00', r: 0.9 });
    // 15 pips on the 4,000 closed: 6.00 USD, 0.6 R.
    expect(at.realized).toEqual({ pips: 15, money: '6.00', r: 0.6, units: '4000' });
    expect(at.markers.map((m) => m.text)).toEqual(['Buy 1.10000', 'SL → 1.10000', 'Part −4,000 @ 1.10150']);
    expect(at.markers[2]).toMatchObject({ position: 'aboveBar', shape: 'square', time: partial.bars[6]!.time });

    // close 1.10180: 18 pips on 6,000 units = 10.80 USD, 1.08 R; the realized part unchanged.
    expect(replayFrame(partial, 7).pl).toEqual({ pips: 18, money: '10.80', r: 1.08 });
    expect(replayFrame(partial, 7).realized?.money).toBe('6.00');

    const closed = replayFrame(partial, 9);
    expect(closed.phase).toBe('closed');
    expect(closed.openUnits).toBe('0');
    // The whole trade: 6.00 + 20 pips × 0.60 = 12.00, so 18.00 USD and 0.6 + 1.2 = 1.8 R; pips averaged over all the
    // units, (15 × 4,000 + 20 × 6,000) ÷ 10,000 = 18.
    expect(closed.pl).toEqual({ pips: 18, money: '18.00', r: 1.8 });
    expect(closed.realized).toEqual({ pips: 15, money: '6.00', r: 0.6, units: '4000' });
    // MFE: the exit candle's high 1.10220, reached on the 6,000 units open then: 22 × 0.60 = 13.20 USD, 1.32 R.
    expect(closed.mfe).toEqual({ pips: 22, money: '13.20', r: 1.32 });
    // MAE: the fourth candle's low 1.09920, on all the units: −8.00 USD, −0.8 R.
    expect(closed.mae).toEqual({ pips: -8, money: '-8.00', r: -0.8 });
  });

  it('a short with two partial closes sums them exactly and rounds the money once', () => {
    // A short of 3 units of USD_JPY (pip 0.01), 1 R = 20 pips, a pip of the whole trade worth 1.01 USD.
    const short = replayModel(
      replayFixture({
        side: 'short',
        entryPrice: '150.000',
        units: '3',
        pipSize: '0.01',
        pipValue: '1.01',
        candles: replayFixture().candles.map((c) => ({
          ...c,
          mid: { o: '150.000', h: '150.100', l: '149.700', c: '149.900' },
        })),
        events: [
          { time: '2026-11-24T09:02:10.000000000Z', kind: 'entry', price: '150.000', units: null },
          { time: '2026-11-24T09:02:10.000000000Z', kind: 'stop_set', price: '150.200', units: null },
          { time: '2026-11-24T09:03:10.000000000Z', kind: 'partial_close', price: '149.800', units: '1' },
          { time: '2026-11-24T09:04:10.000000000Z', kind: 'partial_close', price: '150.050', units: '1' },
        ],
      }),
      (ms) => ms / 1000,
    );
    const frame = replayFrame(short, 5);
    expect(frame.phase).toBe('open');
    expect(frame.openUnits).toBe('1');
    // Realized: +20 pips and −5 pips on one unit each: 15 × 1.01 ÷ 3 = 5.05 USD; (1 − 0.25) ÷ 3 = 0.25 R.
    expect(frame.realized).toEqual({ pips: 7.5, money: '5.05', r: 0.25, units: '2' });
    // Open: +10 pips on the one unit left: 10 × 1.01 ÷ 3 = 3.3667 → 3.37 USD; 0.5 R ÷ 3 = 0.17 R.
    expect(frame.pl).toEqual({ pips: 10, money: '3.37', r: 0.17 });
  });

  it('leaves money out without a pip value and R out without a stop', () => {
    const bare = replayModel(
      replayFixture({
        pipValue: null,
        riskAmount: null,
        events: replayFixture().events.filter((e) => e.kind === 'entry' || e.kind === 'exit'),
      }),
      (ms) => ms / 1000,
    );
    expect(replayFrame(bare, 3).pl).toEqual({ pips: -5, money: null, r: null });
  });

  it("leaves room in the time range for a marker's text at either end", () => {
    // 100 candles on 300 px: 1 candle on the left and 5 on the right, 105 candle widths of 2.86 px.
    expect(replayRange(100, 300, [{ index: 50, text: 'Buy 1.10000' }])).toEqual({ from: -1, to: 104 });
    // 'Close 1.10200' (13 characters, 45.5 px each side) on the last candle, clear of the lines' titles ('Entry':
    // 5 × 7 + 12 = 47 px), 92.5 px in all: 45 candles of 300 ÷ 145 = 2.07 px are 93.1 px; 44 of 300 ÷ 144 would be
    // 91.7.
    expect(replayRange(100, 300, [{ index: 99, text: 'Close 1.10200' }])).toEqual({ from: -1, to: 99 + 45 });
    // 'Buy 1.10000' (38.5 px each side) on the first candle: 16 candles of 300 ÷ 120 = 2.5 px are 40 px.
    expect(replayRange(100, 300, [{ index: 0, text: 'Buy 1.10000' }])).toEqual({ from: -16, to: 104 });
    // A marker further in needs less: 5 candles before the last, 38 after the last make 43 of 300 ÷ 138 = 93.5 px;
    // 37 would make 42 of 300 ÷ 137 = 92.0 px.
    expect(replayRange(100, 300, [{ index: 94, text: 'Close 1.10200' }])).toEqual({ from: -1, to: 99 + 38 });
    // The whole replay's markers, at their candles.
    expect(markerSpots(model)).toEqual([
      { index: 2, text: 'Buy 1.10000' },
      { index: 5, text: 'SL → 1.10000' },
      { index: 8, text: 'Close 1.10200' },
    ]);
  });

  it("a trailing stop's moves read from the candles: the SL line follows, no marker, named as derived", () => {
    const events = replayFixture().events.filter((e) => e.kind !== 'stop_moved');
    events.splice(3, 0, {
      time: '2026-11-24T09:04:00.000000000Z',
      kind: 'stop_moved',
      price: '1.09920',
      units: null,
      fromCandles: true,
    });
    const trailing = replayModel(replayFixture({ events }), (ms) => ms / 1000);
    const frame = replayFrame(trailing, 4);
    expect(frame.lines.map((l) => `${l.title} ${l.price}`)).toEqual(['Entry 1.1', 'SL 1.0992', 'TP 1.103']);
    expect(frame.markers.map((m) => m.text)).toEqual(['Buy 1.10000']);
    expect(frame.happened.map(replayEventLabel)).toEqual([
      'Entry',
      'Stop loss set',
      'Take profit set',
      'Trailing stop moved (from candles)',
    ]);
  });

  it('names every event kind', () => {
    expect(REPLAY_EVENT_KINDS.map((kind) => REPLAY_EVENT_LABELS[kind]).every(Boolean)).toBe(true);
  });

  it('maps space and the arrows, nothing else', () => {
    expect([' ', 'ArrowLeft', 'ArrowRight', 'Escape', 'Enter'].map(replayKeyAction)).toEqual([
      'toggle',
      'back',
      'forward',
      null,
      null,
    ]);
  });
});
