import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody } from '@pipsense/contract';
import { drainRequest } from '../lib/drain';
import { AppError } from '../lib/errors';

/** Prefixes the field's name unless the message already names it (custom messages do). */
function fieldMessage(path: string, message: string): string {
  const field = path.split('.').at(-1) ?? '';
  const word = field.split('_').at(-1)?.toLowerCase() ?? '';
  if (!field || message.toLowerCase().includes(word)) return message;
  return `${field}: ${message}`;
}

const statusMessages: Record<number, string> = {
  400: 'The request could not be read. Check what you sent and try again.',
  404: 'Not found.',
  405: 'Method not allowed.',
  413: 'The request is too large (the limit is 1 MiB).',
  415: 'Send the request body as JSON (Content-Type: application/json).',
  429: 'Too many requests. Please wait a moment and try again.',
};

/** One place that turns every failure into the `{ success: false, message, code, requestId }` envelope. */
/**
 * One line per response worth reading: server errors (5xx) and responses slower than `slowMs`, at warn; with
 * `slowMs` 0 every response, at info. Replaces Fastify's own request logging (`disableRequestLogging`), which
 * writes two lines for every request.
 */
export function registerRequestLog(app: FastifyInstance, slowMs: number): void {
  app.addHook('onResponse', (request, reply, done) => {
    const ms = reply.elapsedTime;
    const status = reply.statusCode;
    if (status >= 500 || ms >= slowMs) {
      const entry = { method: request.method, url: request.url, statusCode: status, responseTime: Math.round(ms) };
      if (slowMs === 0 && status < 500) request.log.info(entry, 'request completed');
      else request.log.warn(entry, status >= 500 ? 'request failed' : 'slow request');
    }
    done();
  });
}

/**
 * Bytes of a refused request's body (too large, wrong type, signed out…) read and dropped before the answer, so the
 * client gets its 413 or 401 rather than a reset connection (SECURITY.md, Oversized bodies): 16 times the 1 MiB body
 * limit.
 */
const REFUSED_BODY_DRAIN = 16 * 1024 * 1024;

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError | AppError | Error, request, reply) => {
    await drainRequest(request.raw, { maxBytes: REFUSED_BODY_DRAIN });
    const requestId = request.id;
    const send = (
      status: number,
      body: Omit<ErrorBody, 'success' | 'requestId'>,
      headers: Record<string, string> = {},
    ) =>
      reply
        .status(status)
        .headers(headers)
        .send({ success: false, requestId, ...body } satisfies ErrorBody);

    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      const details = error.details ? { details: error.details } : {};
      return send(error.status, { message: error.message, code: error.code, ...details }, error.headers);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => {
        const path = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
        return { path, message: fieldMessage(path, v.message ?? 'is invalid') };
      });
      return send(400, { message: issues[0]?.message ?? statusMessages[400]!, code: 'VALIDATION_FAILED', issues });
    }
    const status = (error as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      const code = (error as FastifyError).code ?? 'BAD_REQUEST';
      const message =
        status === 429 ? error.message || statusMessages[429]! : (statusMessages[status] ?? statusMessages[400]!);
      return send(status, { message, code: status === 429 ? 'RATE_LIMITED' : code });
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(500, { message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' });
  });
}

/** Unknown paths: the web app's routes get index.html (when served), everything else a 404 envelope. */
export function registerNotFound(
  app: FastifyInstance,
  webFallback: (request: FastifyRequest, reply: FastifyReply) => boolean = () => false,
): void {
  app.setNotFoundHandler((request, reply) => {
    if (webFallback(request, reply)) return;
    void reply.status(404).send({
      success: false,
      message: `No such API route: ${request.method} ${request.url.split('?')[0]}`,
      code: 'NOT_FOUND',
      requestId: request.id,
    } satisfies ErrorBody);
  });
}
