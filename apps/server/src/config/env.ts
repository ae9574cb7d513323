import { isIP } from 'node:net';
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

/** One IP address or CIDR range (`10.0.0.0/8`, `fd00::/8`), as proxy-addr takes them. */
const isAddressOrRange = (entry: string): boolean => {
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
};

/**
 * Which proxies in front of the server are believed about the client's address (`X-Forwarded-For`) and the scheme
 * (`X-Forwarded-Proto`): a hop count (`1`: the one proxy in front) or a comma-separated list of proxy IPs and CIDR
 * ranges. Unset: none, the socket's address is the client's.
 */
const trustProxy = z
  .string()
  .trim()
  .refine((v) => /^\d+$/.test(v) || v.split(',').every((e) => isAddressOrRange(e.trim())), {
    message: 'must be a hop count (e.g. 1) or a comma-separated list of proxy IPs and CIDR ranges (e.g. 10.0.0.0/8)',
  })
  .transform((v): number | string[] => (/^\d+$/.test(v) ? Number(v) : v.split(',').map((e) => e.trim())))
  .refine((v) => typeof v !== 'number' || (v >= 1 && v <= 20), { message: 'hop count must be 1 to 20' });

const schema = z
  .object({
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
    /**
     * AI cost (SECURITY.md, Resource exhaustion): the output-token cap of an assistant answer's provider call (the
     * insights use less).
     */
    AI_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(64).max(100_000).default(1500),
    /** AI cost: provider requests per user per UTC day, shared by every instance (0: no limit). */
    AI_DAILY_REQUESTS: z.coerce.number().int().min(0).max(1_000_000).default(200),
    /** AI cost: tool calls the model may make in one round; more are answered with an error, never run. */
    AI_MAX_TOOL_CALLS_PER_ROUND: z.coerce.number().int().min(1).max(100).default(8),
    /**
     * AI cost: of AI_DAILY_REQUESTS, the provider requests the coach's background reviews may make per user per UTC
     * day (docs/coach.md, Cost and privacy); unset: half of AI_DAILY_REQUESTS. Past it, the built-in analyst writes.
     */
    COACH_DAILY_REQUESTS: z.coerce.number().int().min(0).max(1_000_000).optional(),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
    /** Sign-in and registration attempts allowed per minute, per IP and per username. */
    AUTH_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(20),
    /** Username and email availability checks allowed per minute, per IP (the registration form's lookups). */
    CHECK_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(30),
    /** Proxies believed about the client's address and scheme; also turns HSTS on (TLS is in front). Unset: none. */
    TRUST_PROXY: trustProxy.optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /**
     * Requests are not logged one by one (Fastify's two lines a request cost more than a small route): only server
     * errors and responses slower than this many milliseconds, at warn. 0 logs every response (at info).
     */
    SLOW_REQUEST_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
    WEB_DIST: z.string().optional(),
    /** MAE/MFE candle requests per minute per OANDA token (the background job's budget); 0 turns the job off. */
    EXCURSION_REQUESTS_PER_MINUTE: z.coerce.number().int().min(0).max(6_000).default(30),
    /** The background sync's scheduler: on in every server instance unless turned off here. */
    BACKGROUND_SYNC: z.enum(['on', 'off'], { error: 'BACKGROUND_SYNC must be on or off' }).default('on'),
    /** Mail: the SMTP server (smtp:// or smtps://, user and password in the URL); unset, links go to the log. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().min(3).default('PipSense <no-reply@localhost>'),
    /** Where the in-app feedback is mailed (it is stored either way). */
    SUPPORT_EMAIL: z.email('must be an email address').optional(),
    /** Images (docs/review.md, Attachments): each user's storage for them, in MB (image and thumbnail bytes). */
    ATTACHMENTS_QUOTA_MB: z.coerce.number().int().min(1).max(10_000_000).default(500),
    /**
     * Images kept in an S3 bucket instead of the database:
     * `http(s)://KEY:SECRET@HOST[:PORT]/BUCKET[/PREFIX]?region=REGION&forcePathStyle=true` (decision 025).
     */
    ATTACHMENTS_S3_URL: z
      .string()
      .regex(/^https?:\/\/[^/]+\/[^/?]+/, 'must be an http:// or https:// URL naming the bucket as its path')
      .optional(),
    /** The address the web app is reached at, for the links in emails. */
    PUBLIC_URL: z.url().default('http://localhost:3000'),
  })
  .superRefine((env, ctx) => {
    // Several instances share one PostgreSQL database: secrets generated per instance would not match (a token signed
    // by one is refused by the next, an OANDA token sealed by one cannot be read by another).
    if (!env.DATABASE_URL) return;
    const missing = (['JWT_SECRET', 'ENCRYPTION_KEY'] as const).filter((key) => env[key] === undefined);
    if (missing.length === 0) return;
    ctx.addIssue({
      code: 'custom',
      path: ['DATABASE_URL'],
      message:
        `PostgreSQL needs JWT_SECRET and ENCRYPTION_KEY set, the same in every instance (missing: ${missing.join(' and ')}). ` +
        'Make them once and give them to every instance: JWT_SECRET=$(openssl rand -base64 48) and ENCRYPTION_KEY=$(openssl rand -hex 32).',
    });
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
