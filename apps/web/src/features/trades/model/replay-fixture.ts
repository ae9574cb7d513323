import { replay, type Replay } from '@pipsense/contract';

/**
 * A replay as the server answers it, for the tests: ten one-minute EUR/USD candles from 09:00 UTC, a long of 10,000
 * units entered at 1.10000 in the third (index 2) with its stop at 1.09900 (10 pips, 1 R = 10.00 USD), moved to
 * 1.10000 in the sixth, a target at 1.10300, and the exit at 1.10200 in the ninth.
 */
export function replayFixture(over: Partial<Replay> = {}): Replay {
  return replay.parse({ ...base(), ...over });
}

function base(): Replay {
  const closes = [
    '1.09980',
    '1.09990',
    '1.10010',
    '1.09950',
    '1.10050',
    '1.10100',
    '1.10150',
    '1.10180',
    '1.10200',
    '1.10210',
  ];
  return {
    instrument: 'EUR_USD',
    granularity: 'M1',
    candles: closes.map((c, i) => ({
      time: `2026-11-24T09:0${i}:00.000000000Z`,
      volume: 10,
      complete: true,
      mid: {
        o: i === 0 ? '1.09970' : closes[i - 1]!,
        h: (Number(c) + 0.0002).toFixed(5),
        l: (Number(c) - 0.0003).toFixed(5),
        c,
      },
    })),
    events: [
      { time: '2026-11-24T09:02:10.000000000Z', kind: 'entry', price: '1.10000', units: null },
      { time: '2026-11-24T09:02:10.000000000Z', kind: 'stop_set', price: '1.09900', units: null },
      { time: '2026-11-24T09:02:10.000000000Z', kind: 'take_profit_set', price: '1.10300', units: null },
      { time: '2026-11-24T09:05:30.000000000Z', kind: 'stop_moved', price: '1.10000', units: null },
      { time: '2026-11-24T09:08:45.000000000Z', kind: 'exit', price: '1.10200', units: '10000' },
    ],
    entryIndex: 2,
    side: 'long',
    entryPrice: '1.10000',
    units: '10000',
    pipSize: '0.0001',
    currency: 'USD',
    pipValue: '1',
    riskAmount: '10.00',
  };
}
