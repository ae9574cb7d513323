import { EnvError, loadEnv } from './config/env';
import { buildApp } from './app';
import { DataDirInUseError, lockDataDir, type DataDirLock } from './lib/data-dir-lock';

async function main(): Promise<void> {
  let env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // One process per SQLite data directory (docs/decisions/017); PostgreSQL is shared by design.
  let lock: DataDirLock | undefined;
  try {
    lock = env.DATABASE_URL ? undefined : lockDataDir(env.DATA_DIR);
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // The background sync's scheduler runs in every server instance (pg-boss shares the work on PostgreSQL).
  // With the data directory's lock this is the only process on the database: leases left by a crash are released.
  const app = await buildApp({
    env,
    syncJobs: { enabled: env.BACKGROUND_SYNC === 'on', onlyInstance: lock !== undefined },
  });
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, closing`);
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    app.close().then(
      () => {
        lock?.release();
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  await app.listen({ port: env.PORT, host: env.HOST });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
