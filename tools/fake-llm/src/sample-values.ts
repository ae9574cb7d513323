/**
 * Plausible values from a JSON Schema (or Gemini's OpenAPI-style `Schema`, upper-case types), read
 * off the user's words where possible: "my top 5 EUR/USD trades on the 5-minute chart" gives
 * `instrument: 'EUR_USD'`, `count: 5`, `granularity: 'M5'`.
 */

type Schema = Record<string, unknown>;

const CURRENCIES = 'EUR|USD|GBP|JPY|AUD|NZD|CAD|CHF|XAU|XAG|SGD|HKD|SEK|NOK|MXN|ZAR|TRY|CNH|PLN';
const PAIR_SEPARATED = new RegExp(`\\b(${CURRENCIES})[_/ -](${CURRENCIES})\\b`, 'i');
const PAIR_JOINED = new RegExp(`\\b(${CURRENCIES})(${CURRENCIES})\\b`, 'i');

function asSchema(value: unknown): Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Schema) : {};
}

/** The schema's types, lower-cased; `['string', 'null']` for a nullable string. */
function typesOf(schema: Schema): string[] {
  const raw = schema.type;
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  const types = list.map((t) => String(t).toLowerCase());
  if (schema.nullable === true) types.push('null');
  if (types.length === 0 && schema.properties) types.push('object');
  return types;
}

export function instrumentIn(text: string): string | undefined {
  const m = PAIR_SEPARATED.exec(text) ?? PAIR_JOINED.exec(text);
  return m ? `${m[1]!.toUpperCase()}_${m[2]!.toUpperCase()}` : undefined;
}

export function granularityIn(text: string): string | undefined {
  const explicit = /\b(S5|S10|S15|S30|M1|M2|M4|M5|M10|M15|M30|H1|H2|H3|H4|H6|H8|H12)\b/.exec(text);
  if (explicit) return explicit[1];
  const minutes = /\b(\d{1,2})[- ]?min(ute)?s?\b/i.exec(text);
  if (minutes) return `M${minutes[1]}`;
  const hours = /\b(\d{1,2})[- ]?(hour|hr)s?\b/i.exec(text);
  if (hours) return `H${hours[1]}`;
  if (/\b(hourly|an hour)\b/i.test(text)) return 'H1';
  if (/\b(daily|day chart|days?)\b/i.test(text)) return 'D';
  if (/\bweekly\b/i.test(text)) return 'W';
  return undefined;
}

/** "top 5", "last 10 trades", "3 best" → 5, 10, 3. */
export function countIn(text: string): number | undefined {
  const m =
    /\b(?:top|last|first|best|worst|latest|recent)\s+(\d{1,4})\b/i.exec(text) ??
    /\b(\d{1,4})\s+(?:trades?|candles?|positions?|bars?|best|worst|largest|biggest)\b/i.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** The numbers written in a text, as written ("170.00", "-3.5"). */
export function numbersIn(text: string): string[] {
  return text.match(/-?\d+(?:\.\d+)?/g) ?? [];
}

function clamp(n: number, schema: Schema): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : Number(schema.minimum ?? Number.NaN);
  const max = typeof schema.maximum === 'number' ? schema.maximum : Number(schema.maximum ?? Number.NaN);
  let v = n;
  if (!Number.isNaN(min)) v = Math.max(v, min);
  if (!Number.isNaN(max)) v = Math.min(v, max);
  return v;
}

function enumMatch(values: unknown[], text: string): unknown {
  for (const value of values) {
    if (typeof value !== 'string') continue;
    // Codes (M5, D) must match exactly; words (CLOSED, open) in any case.
    const isCode = value.length <= 2 || /\d/.test(value);
    const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/_/g, '[ _]');
    const pattern = new RegExp(`\\b${escaped}\\b`, isCode ? '' : 'i');
    if (pattern.test(text)) return value;
  }
  const inferred = granularityIn(text);
  return inferred !== undefined && values.includes(inferred) ? inferred : undefined;
}

/** A value for one argument when the user's words say it; undefined otherwise. */
function inferArgument(key: string, schema: Schema, text: string): unknown {
  if (Array.isArray(schema.enum)) return enumMatch(schema.enum, text);
  const types = typesOf(schema);
  if (types.includes('string')) {
    if (/instrument|symbol|pair/i.test(key)) return instrumentIn(text);
    if (/granularity|timeframe|interval/i.test(key)) return granularityIn(text);
    return undefined;
  }
  if (types.includes('integer') || types.includes('number')) {
    if (/count|limit|top|^n$|number|size/i.test(key)) {
      const n = countIn(text);
      return n === undefined ? undefined : clamp(n, schema);
    }
  }
  return undefined;
}

/** A value for a required argument the user did not mention. */
function placeholderArgument(key: string, schema: Schema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const types = typesOf(schema);
  if (types.includes('null')) return null;
  if (types.includes('string')) {
    if (/instrument|symbol|pair/i.test(key)) return 'EUR_USD';
    if (/granularity|timeframe|interval/i.test(key)) return 'M5';
    if (schema.format === 'date-time') return new Date().toISOString();
    if (schema.format === 'date') return new Date().toISOString().slice(0, 10);
    return 'all';
  }
  if (types.includes('integer') || types.includes('number')) return clamp(10, schema);
  if (types.includes('boolean')) return false;
  if (types.includes('array')) return [];
  if (types.includes('object')) return {};
  const anyOf = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(anyOf) && anyOf.length > 0) return placeholderArgument(key, asSchema(anyOf[0]));
  return null;
}

/** Arguments for a tool: what the user's words say, plus placeholders for required ones. */
export function sampleArguments(parameters: Schema | undefined, text: string): Record<string, unknown> {
  const schema = asSchema(parameters);
  const properties = asSchema(schema.properties);
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  const args: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(properties)) {
    const prop = asSchema(raw);
    const value = inferArgument(key, prop, text);
    if (value !== undefined) args[key] = value;
    else if (required.includes(key)) args[key] = placeholderArgument(key, prop);
  }
  return args;
}

/**
 * A whole structured-output document for a schema. Strings quote the numbers of the prompt in turn,
 * so that an insights screen fed by the fake shows the figures it was given.
 */
export function sampleDocument(schema: Schema, promptText: string): unknown {
  const numbers = numbersIn(promptText);
  let next = 0;
  const nextNumber = (): string | undefined => (numbers.length === 0 ? undefined : numbers[next++ % numbers.length]);

  const build = (node: Schema, key: string): unknown => {
    if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
    if (node.const !== undefined) return node.const;
    const anyOf = node.anyOf ?? node.oneOf;
    if (Array.isArray(anyOf) && anyOf.length > 0) {
      const nonNull = anyOf.map(asSchema).find((s) => !typesOf(s).every((t) => t === 'null'));
      return build(nonNull ?? asSchema(anyOf[0]), key);
    }
    const types = typesOf(node).filter((t) => t !== 'null');
    const type = types[0] ?? (typesOf(node).includes('null') ? 'null' : 'string');
    switch (type) {
      case 'object': {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(asSchema(node.properties))) out[k] = build(asSchema(v), k);
        return out;
      }
      case 'array': {
        const min = typeof node.minItems === 'number' ? node.minItems : Number(node.minItems ?? 0) || 0;
        const count = Math.max(min, 2);
        const max = typeof node.maxItems === 'number' ? node.maxItems : Number(node.maxItems ?? Number.NaN);
        const n = Number.isNaN(max) ? count : Math.min(count, max);
        return Array.from({ length: n }, () => build(asSchema(node.items), key));
      }
      case 'integer':
      case 'number': {
        const n = Number(nextNumber() ?? 0);
        return clamp(type === 'integer' ? Math.round(n) : n, node);
      }
      case 'boolean':
        return false;
      case 'null':
        return null;
      default: {
        const a = nextNumber();
        const b = nextNumber();
        if (a === undefined) return `Fake ${key || 'text'} from the fake model.`;
        return `Fake ${key || 'text'} based on the figures ${a} and ${b ?? a}.`;
      }
    }
  };
  return build(schema, '');
}
