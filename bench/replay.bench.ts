/*
 * Trade replay (docs/review.md, Replay): GET /api/v1/trade/get_replay of a closed EUR_USD trade of 450 minutes
 * against the v20 simulator in this process, through the real app (app.inject, SQLite): 50 candles before the entry
 * and one per minute to the exit, 500 M1 candles. The first read fetches the candles from the simulator and keeps
 * them (modules/candles); every later one is answered from the kept candles, with the trade's orders from the
 * transaction store. Goal: a replay of 500 kept candles ≤ 300 ms.
 */
import { startOandaSim } from '@pipsense/oanda-sim';
import type { Replay } from '@pipsense/contract';
import { createBenchApp } from './support/bench-app';
import { goal, heading, median, ms, runBench, spread } from './support/stats';

const START = Date.UTC(2026, 10, 24, 8, 0);
const RUNS = 30;

runBench(async () => {
  let clock = START;
  const sim = await startOandaSim({ accounts: [{ currency: 'USD', trades: 200 }], now: () => clock });
  const app = await createBenchApp(
    { OANDA_PRACTICE_URL: sim.url, OANDA_LIVE_URL: 'http://127.0.0.1:9' },
    { now: () => new Date(clock) },
  );
  try {
    const account = sim.accountIds[0]!;
    const mid = Number(sim.state.price('EUR_USD').mid);
    const opened = sim.openTrade(account, {
      instrument: 'EUR_USD',
      units: 10_000,
      stopLoss: (mid - 0.002).toFixed(5),
      takeProfit: (mid + 0.004).toFixed(5),
    });
    for (let i = 1; i <= 4; i++) {
      clock += 90 * 60_000;
      sim.setStopLoss(account, opened.id, (mid - 0.002 + i * 0.0004).toFixed(5));
    }
    clock += 89 * 60_000;
    sim.closeTrade(account, opened.id);
    clock += 30 * 60_000;
    const { token } = await app.oandaUser({ oanda: { accessToken: sim.token } });
    const url = `/api/v1/trade/get_replay/${account}/${opened.id}`;
    const read = async () => {
      const start = performance.now();
      const res = await app.call(token, { method: 'GET', url });
      const took = performance.now() - start;
      if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
      return { took, data: res.json<{ data: Replay }>().data };
    };

    heading('replay of a 450-minute trade at M1 (50 candles before the entry)');
    sim.requestLog.length = 0;
    const first = await read();
    const fetched = sim.requestLog.filter((r) => r.path.includes('/candles')).length;
    console.log(
      `first read (candles fetched from the simulator, ${fetched} requests): ${ms(first.took)}; ` +
        `${first.data.candles.length} ${first.data.granularity} candles, ${first.data.events.length} events`,
    );
    sim.requestLog.length = 0;
    const kept: number[] = [];
    for (let i = 0; i < RUNS; i++) kept.push((await read()).took);
    const again = sim.requestLog.filter((r) => r.path.includes('/candles')).length;
    console.log(`kept candles: ${spread(kept)}; candle requests to OANDA meanwhile: ${again}`);
    goal(
      `replay of ${first.data.candles.length} kept candles`,
      ms(median(kept)),
      median(kept) <= 300 && first.data.candles.length >= 500,
      '≤ 300 ms',
    );
  } finally {
    await app.close();
    await sim.close();
  }
});
