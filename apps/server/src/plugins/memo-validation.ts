import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createLru } from '../lib/lru';

/** Query strings remembered per route. */
const REMEMBERED = 1000;

type Validate = (data: unknown) => { value?: unknown; error?: Error | FastifySchemaValidationError[] };

/**
 * Where the first string (or key) holding a NUL character is, as a path of keys, or undefined. Walked with a stack of
 * its own, not by recursion: a body nested a few hundred thousand levels deep (well within the 1 MiB limit, and
 * parsed by JSON.parse) must get its 400 from the schema, not overflow the call stack here.
 */
function nulAt(data: unknown): Array<string | number> | undefined {
  type Step = { value: unknown; key?: string | number; parent?: Step };
  const pathOf = (step: Step): Array<string | number> => {
    const path: Array<string | number> = [];
    for (let at: Step | undefined = step; at?.parent; at = at.parent) path.unshift(at.key!);
    return path;
  };
  const stack: Step[] = [{ value: data }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const { value } = step;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return pathOf(step);
    } else if (value !== null && typeof value === 'object') {
      const list = Array.isArray(value);
      for (const [key, child] of Object.entries(value).reverse()) {
        if (key.includes('\u0000')) return [...pathOf(step), key];
        stack.push({ value: child, key: list ? Number(key) : key, parent: step });
      }
    }
  }
  return undefined;
}

/**
 * The app's zod validator for every part of a request (body, query string, path parameters, headers), refusing a
 * NUL character in any string first: no field of PipSense holds one, PostgreSQL cannot store one in text (it would
 * answer 500 from the database), and C-based tools cut the text at it. A 400 naming the field, like any schema error.
 */
export const appValidatorCompiler: FastifySchemaCompiler<unknown> = (route) => {
  const validate = validatorCompiler(route as unknown as Parameters<typeof validatorCompiler>[0]) as Validate;
  return (data: unknown) => {
    const at = nulAt(data);
    if (at === undefined) return validate(data);
    return { error: [nulIssue(at)] };
  };
};

/**
 * A validation error item as the zod type provider makes them (the error handler recognises those: a 400 with the
 * field's path), taken from one it made for a number where a string belongs, then pointed at the field.
 */
const libraryIssue = (
  (validatorCompiler as unknown as (r: { schema: unknown }) => Validate)({ schema: z.string() })(0)
    .error as FastifySchemaValidationError[]
)[0]!;
function nulIssue(path: Array<string | number>): FastifySchemaValidationError {
  const at = `/${path.join('/')}`;
  return {
    ...libraryIssue,
    keyword: 'custom',
    instancePath: at,
    schemaPath: `#${at}/custom`,
    params: {},
    message: 'must not contain the NUL character (\\u0000)',
  };
}

/**
 * The app's zod validator, with a route's query strings remembered: a query string validated once (the same fields
 * and values) gets the same parsed value again without running the schema, which costs more than the rest of a
 * cached list request (bench/api.bench.ts). Only valid ones are remembered; an invalid one is refused by the schema
 * each time, with its message. Other parts of the request (bodies, params) are validated as always. Each request
 * gets its own copy of the value's top level. For a route's `validatorCompiler` option.
 */
export function rememberingQueryValidator<S>(): FastifySchemaCompiler<S> {
  return (route) => {
    const validate = appValidatorCompiler(route) as Validate;
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
