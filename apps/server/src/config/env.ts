import { z } from 'zod';

const optionalUrl = z.url().optional();
const optionalText = z.string().min(1).optional();

/** Durations such as "24h", "30m", "3600" (seconds) or "7d". */
const duration = z
  .string()
  .regex(/^\d+[smhd]?$/, 'must be a number of seconds or end in s, m, h or d (e.g. 24h)')
  .transform((v) => {
    const n = Number.parseInt(v, 10);
    const unit = v.at(-1);
    const factor = unit === 'm' ? 60 : unit === 'h' ? 3600 : unit === 'd' ? 86_400 : 1;
    return n * factor;
  });

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  JWT_TTL: duration.default(24 * 3600),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (32 bytes)')
    .optional(),
  OANDA_PRACTICE_URL: z.url().default('https://api-fxpractice.oanda.com'),
  OANDA_LIVE_URL: z.url().default('https://api-fxtrade.oanda.com'),
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalUrl,
  OPENAI_MODEL_TRADING: z.string().min(1).default('gpt-4o'),
  OPENAI_MODEL_ACCOUNTS: z.string().min(1).default('gpt-4o'),
  OPENAI_MODEL_CANDLES: z.string().min(1).default('gpt-3.5-turbo'),
  VERTEX_API_KEY: optionalText,
  VERTEX_PROJECT: optionalText,
  VERTEX_LOCATION: z.string().min(1).default('us-central1'),
  VERTEX_MODEL: z.string().min(1).default('gemini-2.5-flash'),
  VERTEX_BASE_URL: optionalUrl,
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  /**
   * Behind a reverse proxy or load balancer: whose X-Forwarded-For to believe, so that a request's address (the
   * per-IP sign-in limits, the logs) is the client's and not the proxy's. `true` (any), a number of proxy hops, or
   * the proxies' addresses or CIDR ranges separated by commas. Off by default (the server faces clients directly).
   */
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|\d+|[\w.:/]+(\s*,\s*[\w.:/]+)*)$/,
      'must be true, false, a number of proxy hops, or proxy addresses/CIDRs separated by commas',
    )
    .default('false')
    .transform((v): boolean | number | string[] =>
      v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v.split(',').map((a) => a.trim()),
    ),
  /** Sign-in and registration attempts allowed per minute, per IP and per username. */
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(20),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Requests are not logged one by one (Fastify's two lines a request cost more than a small route): only server
   * errors and responses slower than this many milliseconds, at warn. 0 logs every response (at info).
   */
  SLOW_REQUEST_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
  WEB_DIST: z.string().optional(),
  /** MAE/MFE candle requests per minute per OANDA token (the background job's budget); 0 turns the job off. */
  EXCURSION_REQUESTS_PER_MINUTE: z.coerce.number().int().min(0).max(6_000).default(30),
  /** The background sync's scheduler (issue 11): on in every server instance unless turned off here. */
  BACKGROUND_SYNC: z.enum(['on', 'off'], { error: 'BACKGROUND_SYNC must be on or off' }).default('on'),
});

export type Env = z.infer<typeof schema>;

export class EnvError extends Error {}

/** The only reader of process.env: fails fast, naming every bad key. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new EnvError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/** Test and tool helper: the defaults, overridden by the given keys. */
export function envWith(overrides: Partial<Record<keyof Env, string>>): Env {
  return loadEnv(overrides);
}
