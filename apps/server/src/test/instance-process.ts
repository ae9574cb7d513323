import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../app';
import { envWith, type Env } from '../config/env';
import type { SyncJobs, SyncJobsOptions } from '../modules/sync-jobs/sync-jobs.service';

/*
 * One PipSense instance in a process of its own, for the multi-instance tests (a process that can be SIGKILLed
 * mid-sync, as a crashed machine would be). Started with Node's IPC channel (child_process.fork, tsx loader):
 * argv[2] is JSON `{ env, syncJobs }` (the env keys over the test defaults; the background sync's options, functions
 * excepted). It listens on a free port and sends `{ port }`; on `{ tick: true }` it runs one scheduler tick and
 * answers `{ ticked: n }`.
 */
export interface InstanceProcessConfig {
  env: Partial<Record<keyof Env, string>>;
  syncJobs: Omit<SyncJobsOptions, 'work' | 'expose'>;
}
export type InstanceMessage = { port: number } | { ticked: number } | { error: string };

const send = (message: InstanceMessage) => process.send?.(message);

async function main(): Promise<void> {
  if (!process.send) throw new Error('instance-process.ts runs as a forked child (it reports over IPC).');
  const config = JSON.parse(process.argv[2] ?? '{}') as InstanceProcessConfig;
  const dataDir = mkdtempSync(join(tmpdir(), 'pipsense-instance-process-'));
  const env = envWith({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: join(dataDir, 'no-web'),
    EXCURSION_REQUESTS_PER_MINUTE: '0',
    ...config.env,
  });
  let jobs: SyncJobs | undefined;
  const app = await buildApp({
    env,
    logger: false,
    credentialLimit: 1000,
    oanda: { retries: 0 },
    syncJobs: { ...config.syncJobs, enabled: true, expose: (j) => (jobs = j) },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the instance has no TCP address');
  process.on('message', (message: { tick?: boolean }) => {
    if (!message.tick) return;
    jobs!.queue.tick().then(
      (ticked) => send({ ticked }),
      (error: unknown) => send({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
  process.on('disconnect', () => void app.close().finally(() => process.exit(0)));
  send({ port: address.port });
}

main().catch((error: unknown) => {
  send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
