import { z } from 'zod';

/**
 * The JSON Schema an LLM provider is given for a zod schema (zod 4's `z.toJSONSchema`), so that a
 * shape is declared once, in zod, and validated with the same schema it was described by.
 * `io: 'input'` describes what the model may send (defaulted fields optional, before transforms).
 * `$schema` is dropped, as Vertex AI's schema subset has no such key; so are `pattern`, `minLength`,
 * `maxLength` and `default` (outside the subset both providers document): zod still enforces and
 * applies them, and descriptions tell the model the defaults.
 */
export function providerJsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const { $schema: _draft, ...json } = z.toJSONSchema(schema, {
    io,
    override: ({ jsonSchema }) => {
      delete jsonSchema.pattern;
      delete jsonSchema.minLength;
      delete jsonSchema.maxLength;
      delete jsonSchema.default;
    },
  }) as Record<string, unknown>;
  return json;
}
