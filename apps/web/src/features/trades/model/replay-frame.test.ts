import { describe, expect, it } from 'vitest';
import { REPLAY_EVENT_KINDS } from '@pipsense/contract';
import { REPLAY_EVENT_LABELS, replayFrame, replayKeyAction, replayModel, startIndex } from './replay-frame';
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
