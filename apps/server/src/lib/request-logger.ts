import type { FastifyBaseLogger } from 'fastify';

// pino's types as Fastify's logger takes them: pino is Fastify's dependency, not the server's.
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Parent = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * A request's logger (`request.log`) that becomes the parent's child only when a line is written at an enabled
 * level. Fastify makes a child logger for every request (binding its `reqId`), but at `warn` nearly every request
 * writes nothing; making pino's child (its bindings serialised to JSON) was a visible share of a request's CPU
 * (bench/api.bench.ts). The lines written are the child's own, so they carry the `reqId` as before.
 */
class RequestLogger implements FastifyBaseLogger {
  #parent: Parent;
  #bindings: Bindings;
  #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: Parent, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  get #logger(): FastifyBaseLogger {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#options));
  }

  get level(): string {
    return this.#child?.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#logger.level = level;
  }

  #write(level: Level, args: unknown[]): void {
    if (this.#child === undefined && !this.#parent.isLevelEnabled(level)) return;
    this.#logger[level](...(args as [unknown]));
  }

  // Methods on the prototype, not arrow fields: nothing is allocated per request beyond the object itself.
  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`: a lazy child (above) unless the route sets its own log level, which takes the
 * parent's child at once.
 */
export function lazyRequestLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  if (options.level !== undefined || typeof (parent as Partial<Parent>).isLevelEnabled !== 'function')
    return parent.child(bindings, options);
  return new RequestLogger(parent as Parent, bindings, options);
}
