import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';

/** CSP without inline scripts, no framing, no MIME sniffing, a strict referrer policy. */
const options: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  frameguard: { action: 'deny' },
  crossOriginEmbedderPolicy: false,
  hsts: false,
};

/**
 * The headers helmet sends with these options, worked out once: helmet with `options` answers one request in a
 * throwaway Fastify, beside one without it; the headers only the first sent are the security headers. They depend
 * on no request (no CSP nonces), so each response gets the same object instead of helmet's dozen middlewares
 * rebuilding them (bench/api.bench.ts).
 */
async function securityHeaders(): Promise<Record<string, string>> {
  const answer = async (withHelmet: boolean) => {
    const probe = Fastify({ logger: false });
    if (withHelmet) await probe.register(helmet, options);
    probe.get('/', () => 'ok');
    const res = await probe.inject({ method: 'GET', url: '/' });
    await probe.close();
    return res.headers;
  };
  const [plain, secured] = await Promise.all([answer(false), answer(true)]);
  return Object.fromEntries(
    Object.entries(secured)
      .filter(([name, value]) => !(name in plain) && typeof value === 'string')
      .map(([name, value]) => [name, value as string]),
  );
}

/** One year, subdomains included: sent only when TLS is in front (TRUST_PROXY set), as helmet would send it. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * `hsts`: TLS terminates in front of the server (TRUST_PROXY is set), so browsers are told to use HTTPS only; without
 * a proxy the server speaks plain HTTP and must not send it.
 */
export async function registerSecurityHeaders(app: FastifyInstance, { hsts = false } = {}): Promise<void> {
  const headers = await securityHeaders();
  if (!headers['content-security-policy']) throw new Error('helmet sent no Content-Security-Policy header');
  if (hsts) headers['strict-transport-security'] = HSTS;
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
