import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { createLru } from '../lib/lru';

/** Query strings remembered per route. */
const REMEMBERED = 1000;

type Validate = (data: unknown) => { value?: unknown; error?: Error | FastifySchemaValidationError[] };

/**
 * The app's zod validator, with a route's query strings remembered: a query string validated once (the same fields
 * and values) gets the same parsed value again without running the schema, which costs more than the rest of a
 * cached list request (bench/api.bench.ts). Only valid ones are remembered; an invalid one is refused by the schema
 * each time, with its message. Other parts of the request (bodies, params) are validated as always. Each request
 * gets its own copy of the value's top level. For a route's `validatorCompiler` option.
 */
export function rememberingQueryValidator<S>(): FastifySchemaCompiler<S> {
  return (route) => {
    const validate = validatorCompiler(route as unknown as Parameters<typeof validatorCompiler>[0]) as Validate;
    if (route.httpPart !== 'querystring') return validate;
    const valid = createLru<Readonly<Record<string, unknown>>>({ maxEntries: REMEMBERED });
    return (data: unknown) => {
      const key = JSON.stringify(data);
      const known = valid.get(key);
      if (known) return { value: { ...known } };
      const result = validate(data);
      if (!result.error && result.value !== null && typeof result.value === 'object')
        valid.set(key, Object.freeze({ ...(result.value as Record<string, unknown>) }));
      return result;
    };
  };
}
