import { isRecord } from './wire-utils';

/**
 * OpenAI strict mode (structured outputs, `strict: true` tools) demands, on every object of the
 * schema, `additionalProperties: false` and every property listed in `required`. Returns OpenAI's
 * complaint about the first violation, in its wording.
 */
export function strictSchemaViolation(schema: unknown, context: string[] = []): string | undefined {
  if (!isRecord(schema)) return undefined;
  const where = `In context=(${context.map((c) => `'${c}'`).join(', ')}${context.length === 1 ? ',' : ''})`;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('object') || isRecord(schema.properties)) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required : undefined;
    const missing = Object.keys(properties).find((k) => !required?.includes(k));
    if (!required || missing !== undefined) {
      return `${where}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing ?? Object.keys(properties)[0] ?? ''}'.`;
    }
    if (schema.additionalProperties !== false) {
      return `${where}, 'additionalProperties' is required to be supplied and to be false.`;
    }
    for (const [key, value] of Object.entries(properties)) {
      const inner = strictSchemaViolation(value, [...context, 'properties', key]);
      if (inner) return inner;
    }
  }
  if (schema.items !== undefined) {
    const inner = strictSchemaViolation(schema.items, [...context, 'items']);
    if (inner) return inner;
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (const [i, option] of list.entries()) {
      const inner = strictSchemaViolation(option, [...context, key, String(i)]);
      if (inner) return inner;
    }
  }
  for (const key of ['$defs', 'definitions'] as const) {
    const defs = schema[key];
    if (!isRecord(defs)) continue;
    for (const [name, def] of Object.entries(defs)) {
      const inner = strictSchemaViolation(def, [...context, key, name]);
      if (inner) return inner;
    }
  }
  return undefined;
}
