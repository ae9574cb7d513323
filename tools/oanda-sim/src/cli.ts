// tsx tools/oanda-sim/src/cli.ts --port 4010 --seed 42 [--accounts 3] [--trades 1500]
//   [--history-days 540] [--env practice|live] [--host 127.0.0.1] [--json]
// Starts the simulator, prints its URL, tokens and accounts, and stops cleanly on SIGINT/SIGTERM.

import { parseArgs } from 'node:util';
import { startOandaSim } from './index';

const USAGE = `Usage: tsx tools/oanda-sim/src/cli.ts [options]
  --port <n>          port to listen on (default 4010; 0 picks a free one)
  --host <addr>       interface (default 127.0.0.1)
  --seed <n>          data seed (default 42)
  --accounts <n>      number of accounts (default 3)
  --trades <n>        trades per account (default 1500)
  --history-days <n>  days of history before now (default 540)
  --env <practice|live>  environment served (default practice)
  --json              print one JSON line instead of the human summary
  --help`;

function int(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a non-negative integer, got ${value}`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      accounts: { type: 'string' },
      trades: { type: 'string' },
      'history-days': { type: 'string' },
      env: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const environment = values.env ?? 'practice';
  if (environment !== 'practice' && environment !== 'live') {
    console.error(`--env must be practice or live, got ${environment}`);
    process.exit(2);
  }
  const started = performance.now();
  const sim = await startOandaSim({
    port: int(values.port, 'port', 4010),
    host: values.host ?? '127.0.0.1',
    seed: int(values.seed, 'seed', 42),
    accounts: int(values.accounts, 'accounts', 3),
    tradesPerAccount: int(values.trades, 'trades', 1500),
    historyDays: int(values['history-days'], 'history-days', 540),
    environment,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  if (values.json) {
    console.log(
      JSON.stringify({ url: sim.url, environment: sim.environment, token: sim.token, accounts: sim.state.accounts }),
    );
  } else {
    console.log(`OANDA v20 simulator (${sim.environment}) listening on ${sim.url}  [ready in ${seconds}s]`);
    console.log(`  REST base:  ${sim.url}/v3`);
    console.log(`  token:      ${sim.token}`);
    console.log('  accounts:');
    for (const a of sim.state.accounts) {
      const summary = sim.state.summary(a.id);
      const all = sim.state.trades(a.id).length;
      console.log(
        `    ${a.id}  ${a.alias} (${a.currency})  balance ${summary.balance}  ${all} trades, ${summary.openTradeCount} open`,
      );
    }
    console.log('  Ctrl+C to stop.');
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    sim.close().then(
      () => {
        if (!values.json) console.log(`\n${signal}: simulator stopped.`);
        process.exit(0);
      },
      (err: unknown) => {
        console.error('failed to stop cleanly', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
