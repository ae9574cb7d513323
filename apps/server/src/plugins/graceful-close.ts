import type { FastifyInstance } from 'fastify';

/** How often a closing server looks for connections whose last answer has gone out. */
const SWEEP_MS = 100;

/**
 * Lets the requests in flight finish when the server closes (SIGTERM), then lets the process go. Node's
 * `server.close()` drops the connections idle at that moment, but one busy with a request stays open after its
 * answer, as keep-alive, until its idle timeout (72 s) — long past the 10 s shutdown deadline, so a clean stop
 * ended in exit code 1 (faults/process.test.ts). While closing, answers say `Connection: close` (the client will not
 * reuse the connection) and every connection that has gone idle is closed.
 */
export function registerGracefulClose(app: FastifyInstance): void {
  let closing = false;
  let sweep: NodeJS.Timeout | undefined;
  app.addHook('preClose', (done) => {
    closing = true;
    if (app.server.listening) {
      sweep = setInterval(() => app.server.closeIdleConnections(), SWEEP_MS);
      sweep.unref();
    }
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onClose', (_instance, done) => {
    clearInterval(sweep);
    done();
  });
}
