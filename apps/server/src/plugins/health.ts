import type { FastifyInstance } from 'fastify';

/** What `/readyz` asks of an instance: its database answers and its job queue runs. */
export interface ReadinessChecks {
  /** A trivial query; resolves when the database answers, throws (or hangs past the timeout) when it does not. */
  database: () => Promise<unknown>;
  /**
   * The background sync's queue in this instance: `off` when the instance runs no scheduler (BACKGROUND_SYNC=off,
   * still ready: the Sync buttons need no queue), `running`, or `stopped` (stopped, or draining before a shutdown).
   */
  queue: () => { kind: string; state: 'off' | 'running' | 'stopped' };
  /** How long the database may take to answer before the instance counts as not ready (default 2 s). */
  timeoutMs?: number;
}

export interface ReadinessBody {
  success: boolean;
  message: string;
  checks: {
    database: { ok: boolean; error?: string };
    queue: { ok: boolean; kind: string; state: 'off' | 'running' | 'stopped' };
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `GET /readyz`: 200 when this instance can serve (its database answers, its job queue runs), else 503 with a body
 * naming what failed, so a load balancer takes it out of rotation. `/healthz` stays the cheap liveness check (the
 * process answers): a database outage must not get every instance restarted.
 */
export function registerReadiness(app: FastifyInstance, checks: ReadinessChecks): void {
  const timeoutMs = checks.timeoutMs ?? 2000;
  app.get('/readyz', async (_request, reply) => {
    let database: ReadinessBody['checks']['database'] = { ok: true };
    try {
      await withTimeout(Promise.resolve().then(checks.database), timeoutMs);
    } catch (error) {
      database = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    const { kind, state } = checks.queue();
    const queue = { ok: state !== 'stopped', kind, state };
    const failed: string[] = [];
    if (!database.ok) failed.push(`the database did not answer (${database.error})`);
    if (!queue.ok) failed.push(`the job queue (${kind}) is not running`);
    const body: ReadinessBody = {
      success: failed.length === 0,
      message: failed.length === 0 ? 'ready' : `Not ready: ${failed.join('; ')}.`,
      checks: { database, queue },
    };
    return reply
      .status(failed.length === 0 ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(body);
  });
}
