import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRouteDocs } from '@pipsense/contract';
import { DEMO_TOKEN, startOandaSim, type OandaSim } from '@pipsense/oanda-sim';
import { createTestApp, type TestApp } from '../test/harness';
import { encodeUtf16le, mt5Report } from '../test/metatrader-reports';
import { oandaInfoRecord } from '../test/oanda-user';
import {
  fillPath,
  inputJsonSchema,
  leakIn,
  multipartForm,
  percentEncode,
  routeRecorder,
  type ApiRoute,
  type JsonSchema,
} from './attack-support';
import {
  DEEPEST,
  jsonText,
  junkBody,
  junkValue,
  ODD_CONTENT_TYPES,
  plainText,
  POLLUTION_KEYS,
  sampleFor,
  stringsIn,
  type Junk,
} from './junk-corpus';

/*
 * A generated corpus of junk and injection inputs (junk-corpus.ts, fast-check from a fixed seed) in every field of
 * every route the app registers: the body, query and path fields read off the route's own schemas, the whole body,
 * extra prototype-pollution keys, and the import upload's form fields and file. Each answer is a 4xx with a clear
 * message or a success; never a 5xx, never SQL, a stack trace or a library's text.
 */

const SEED = 20_251_125;
/** Inputs per field, per whole-body / extra-key target, and per upload target (each upload parses on a thread). */
const PER_FIELD = 4;
const PER_TARGET = 5;
const PER_UPLOAD = 3;

let sim: OandaSim;
let t: TestApp;
let routes: ApiRoute[];

interface Fixture {
  token: string;
  username: string;
  email: string;
  password: string;
  /** A chat of each topic, by the answer route's last path segment. */
  chatIds: Record<'trade' | 'account' | 'candle', string>;
  tagId: string;
  accountId: string;
  tradeId: string;
  importId: string;
  mappingId: string;
}
let fx: Fixture;

async function expectOk(res: Promise<LightMyRequestResponse>): Promise<Record<string, unknown>> {
  const r = await res;
  if (r.statusCode !== 200) throw new Error(`set-up answered ${r.statusCode}: ${r.body}`);
  return r.json<Record<string, unknown>>();
}

const report = encodeUtf16le(mt5Report({ positions: 4, seed: 2 }).html);

async function newFixture(): Promise<Fixture> {
  const u = await t.oandaUser({ oanda: { accessToken: DEMO_TOKEN } }, 'junk');
  const call = (options: InjectOptions) => expectOk(t.call(u.token, options));
  const trades = await call({ method: 'GET', url: '/api/v1/trade/get_trade_history?limit=1' });
  const trade = (trades.data as { accountId: string; tradeId: string }[])[0]!;
  const chat = async (topic: string) =>
    (
      (await call({ method: 'POST', url: '/api/v1/chat/create_chat', payload: { title: 'Junk', topic } })).data as {
        _id: string;
      }
    )._id;
  const chatIds = { trade: await chat('trading'), account: await chat('accounts'), candle: await chat('candles') };
  const tag = await call({
    method: 'POST',
    url: '/api/v1/journal/create_tag',
    payload: { name: 'Junk', kind: 'setup' },
  });
  const upload = await call({
    method: 'POST',
    url: '/api/v1/import/upload',
    ...(await multipartForm({}, { bytes: report, name: 'ReportHistory.html' })),
  });
  const mapping = await call({
    method: 'POST',
    url: '/api/v1/import/mappings',
    payload: { name: 'Junk', columns: mappingColumns },
  });
  return {
    ...u,
    chatIds,
    tagId: (tag.data as { id: string }).id,
    accountId: trade.accountId,
    tradeId: trade.tradeId,
    importId: upload.importId as string,
    mappingId: (mapping.data as { id: string }).id,
  };
}

/** The same user with a new session when it can still sign in; otherwise a new fixture. */
async function signedInAgain(f: Fixture): Promise<Fixture> {
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { username: f.username, password: f.password },
  });
  if (login.statusCode !== 200) return newFixture();
  const token = login.json<{ token: string }>().token;
  const me = await t.call(token, { method: 'GET', url: '/api/v1/auth/me' });
  return me.statusCode === 200 ? { ...f, token } : newFixture();
}

const mappingColumns = {
  symbol: 'Symbol',
  side: 'Type',
  volume: 'Lots',
  openTime: 'Open',
  openPrice: 'Open price',
  closeTime: 'Close',
  closePrice: 'Close price',
  profit: 'Profit',
};

/** Valid values the routes accept, for the fields not under attack (the rest come from the schemas). */
function knownGood(f: Fixture, route: ApiRoute): Record<string, unknown> {
  const topic = /\/(trade|account|candle)$/.exec(route.url)?.[1] as keyof Fixture['chatIds'] | undefined;
  return {
    username: f.username,
    email: f.email,
    password: f.password,
    current_password: f.password,
    new_password: f.password,
    new_username: f.username,
    new_email: f.email,
    chatId: f.chatIds[topic ?? 'trade'],
    tagId: f.tagId,
    tagIds: [f.tagId],
    accountId: f.accountId,
    tradeId: f.tradeId,
    trades: [{ accountId: f.accountId, tradeId: f.tradeId }],
    importId: f.importId,
    id: f.mappingId,
    mappingId: f.mappingId,
    columns: mappingColumns,
    title: 'A title',
    name: 'A name',
    kind: 'setup',
    topic: 'trading',
    query: 'How did I do?',
    mode: 'demo',
    timeZone: 'Europe/London',
    interval: 'off',
    instrument: 'EUR_USD',
    granularity: 'M5',
    month: '2025-10',
    date: '2025-10-01',
    note: 'A note',
    rating: 3,
    mood: 3,
    page: 1,
    limit: 10,
    ...oandaInfoRecord({ oanda: { accessToken: DEMO_TOKEN } }),
  };
}

type Part = 'body' | 'querystring' | 'params';
interface Target {
  part: Part | 'wholeBody' | 'extraBodyKey' | 'extraQueryKey' | 'contentType' | 'formField' | 'formFile';
  field?: string;
}
interface Input {
  target: Target;
  value: Junk;
}

const fieldsOf = (schema: JsonSchema | undefined) => Object.keys(schema?.properties ?? {});
const schemaOf = (route: ApiRoute, part: Part) => (route[part] ? inputJsonSchema(route[part]) : undefined);
/** The route's multipart form fields (an intersection of schemas: the fields of each part). */
const uploadForm = (route: ApiRoute): JsonSchema | undefined => {
  const multipart = apiRouteDocs[route.key]?.multipart;
  if (!multipart) return undefined;
  const schema = inputJsonSchema(multipart) as JsonSchema & { allOf?: JsonSchema[] };
  return { properties: Object.assign({}, schema.properties, ...(schema.allOf ?? []).map((p) => p.properties)) };
};

/** The fields of each part of a request, filled with valid values. */
function baseline(route: ApiRoute, f: Fixture): Record<Part, Record<string, unknown>> {
  const good = knownGood(f, route);
  const fill = (schema: JsonSchema | undefined) =>
    Object.fromEntries(
      fieldsOf(schema)
        .filter((name) => name in good || schema?.required?.includes(name))
        .map((name) => [name, name in good ? good[name] : sampleFor(schema?.properties?.[name])]),
    );
  return {
    body: fill(schemaOf(route, 'body')),
    querystring: fill(schemaOf(route, 'querystring')),
    params: Object.fromEntries(
      [...route.url.matchAll(/:(\w+)/g)].map(([, name]) => [name, plainText(good[name!] ?? 'x')]),
    ),
  };
}

/** Every place of a route a junk value can go. */
function targets(route: ApiRoute): Target[] {
  const list: Target[] = [];
  for (const part of ['body', 'querystring', 'params'] as const)
    for (const field of fieldsOf(schemaOf(route, part))) list.push({ part, field });
  for (const [, name] of route.url.matchAll(/:(\w+)/g))
    if (!list.some((x) => x.part === 'params' && x.field === name)) list.push({ part: 'params', field: name! });
  if (route.method !== 'GET' && route.method !== 'DELETE')
    list.push({ part: 'wholeBody' }, { part: 'extraBodyKey' }, { part: 'contentType' });
  list.push({ part: 'extraQueryKey' });
  if (apiRouteDocs[route.key]?.multipart) {
    for (const field of fieldsOf(uploadForm(route)).filter((name) => name !== 'file'))
      list.push({ part: 'formField', field });
    list.push({ part: 'formFile' });
  }
  return list;
}

const queryString = (query: Record<string, unknown>) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    for (const item of Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : [v])
      params.append(k, plainText(item));
  const text = params.toString();
  return text ? `?${text}` : '';
};

/** The request for one junk input. */
async function requestFor(route: ApiRoute, f: Fixture, { target, value }: Input): Promise<InjectOptions> {
  const base = baseline(route, f);
  const headers: Record<string, string> = { authorization: `Bearer ${f.token}` };
  if (target.part === 'params') base.params[target.field!] = plainText(value);
  if (target.part === 'querystring') base.querystring[target.field!] = value;
  let url = fillPath(route.url, base.params as Record<string, string>) + queryString(base.querystring);
  if (target.part === 'extraQueryKey') {
    const key = POLLUTION_KEYS[Math.abs(plainText(value).length) % POLLUTION_KEYS.length]!;
    url += `${url.includes('?') ? '&' : '?'}${percentEncode(key)}=${percentEncode(plainText(value))}&${percentEncode(`${key}[polluted]`)}=yes`;
  }
  if (apiRouteDocs[route.key]?.multipart) {
    const fields: Record<string, string> = {};
    let file: { bytes: Uint8Array; name: string } | null =
      target.part === 'formField' ? { bytes: report, name: 'ReportHistory.html' } : null;
    if (target.part === 'formField') fields[target.field!] = plainText(value);
    if (target.part === 'formFile') {
      const text = plainText(value);
      file = { bytes: new TextEncoder().encode(text), name: text.length < 200 ? `${text}.html` : 'junk.csv' };
    }
    const form = await multipartForm(fields, file);
    return { method: route.method, url, headers: { ...headers, ...form.headers }, payload: form.payload };
  }
  if (route.method === 'GET' || route.method === 'DELETE') return { method: route.method, url, headers };
  let body: string;
  if (target.part === 'wholeBody') body = jsonText(value);
  else if (target.part === 'extraBodyKey') {
    const key = POLLUTION_KEYS[Math.abs(plainText(value).length) % POLLUTION_KEYS.length]!;
    const entries = Object.entries(base.body).map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`);
    body = `{${[...entries, `${JSON.stringify(key)}:${jsonText(value)}`].join(',')}}`;
  } else {
    if (target.part === 'body') base.body[target.field!] = value;
    body = jsonText(base.body);
  }
  const contentType = target.part === 'contentType' ? plainText(value) : 'application/json';
  return { method: route.method, url, headers: { ...headers, 'content-type': contentType }, payload: body };
}

/** What is wrong with an answer to junk, if anything. */
function problems(res: LightMyRequestResponse, sent: string[]): string[] {
  const out: string[] = [];
  if (res.statusCode >= 500) out.push(`answered ${res.statusCode}`);
  // Echoed input is not a leak: take every sent string (as sent, and as JSON writes it) out before looking.
  let text = `${res.body}\n${JSON.stringify(res.headers)}`;
  // (A string longer than the answer cannot be in it, nor can its escaped forms, which are longer still.)
  for (const s of [...new Set(sent)]
    .filter((x) => x.length >= 2 && x.length <= text.length)
    .sort((a, b) => b.length - a.length))
    for (const form of [s, JSON.stringify(s).slice(1, -1), percentEncode(s)])
      if (text.includes(form)) text = text.split(form).join('');
  const leak = leakIn(text);
  if (leak) out.push(`shows ${String(leak)}`);
  if (res.statusCode >= 400) {
    let message: unknown;
    try {
      message = res.json<{ message?: unknown }>().message;
    } catch {
      out.push('error body is not JSON');
    }
    if (typeof message !== 'string' || message.trim().length < 8) out.push(`no clear message (${String(message)})`);
  }
  return out;
}

const short = (s: string) => (s.length > 160 ? `${s.slice(0, 160)}… (${s.length} chars)` : s);

beforeAll(async () => {
  sim = await startOandaSim({ accounts: 1, tradesPerAccount: 8, historyDays: 10, seed: 3 });
  const recorder = routeRecorder();
  t = await createTestApp({ OANDA_PRACTICE_URL: sim.url }, { onRoute: recorder.onRoute, credentialLimit: 100_000 });
  // Routes that end or remove what the others use (the chat, the tag, the preview, the session) go last.
  const ending = (r: ApiRoute) => /delete|cancel|confirm|logout|password|username/.test(r.url);
  routes = [...recorder.routes().filter((r) => !ending(r)), ...recorder.routes().filter(ending)];
  fx = await newFixture();
}, 60_000);
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

describe('junk and injection inputs in every field of every route', () => {
  it('answers 4xx with a clear message or a safe success: never 5xx, never SQL, a stack or library text', async () => {
    let tried = 0;
    let fields = 0;
    let seed = SEED;
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const route of routes) {
      for (const target of targets(route)) {
        fields += 1;
        seed += 1;
        const whole = target.part === 'wholeBody' || target.part === 'extraBodyKey' || target.part === 'extraQueryKey';
        const upload = target.part === 'formField' || target.part === 'formFile';
        const arbitrary =
          target.part === 'contentType' ? fc.constantFrom(...ODD_CONTENT_TYPES) : whole ? junkBody : junkValue;
        const values = fc.sample(arbitrary, {
          seed,
          numRuns: upload ? PER_UPLOAD : whole ? PER_TARGET : PER_FIELD,
        });
        if (target.part === 'body' || target.part === 'wholeBody' || target.part === 'extraBodyKey')
          values.push(DEEPEST);
        for (const value of values) {
          const input: Input = { target, value };
          let request = await requestFor(route, fx, input);
          let res = await t.app.inject(request);
          if (res.statusCode === 401 && !route.public) {
            // The input ended the session (a logout, a password change, the account deleted): sign in again, or
            // carry on as a fresh user when the old one cannot.
            fx = await signedInAgain(fx);
            request = await requestFor(route, fx, input);
            res = await t.app.inject(request);
          }
          tried += 1;
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          const sent = [...stringsIn(value), ...stringsIn(JSON.parse(jsonText(baseline(route, fx).body)) as Junk)];
          for (const problem of problems(res, sent))
            failures.push(
              `${route.key} ${target.part}${target.field ? `.${target.field}` : ''} = ${short(jsonText(value))}: ${problem}: ${short(res.body)}`,
            );
        }
      }
    }
    // Nothing reached Object.prototype.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
    console.info(
      `junk corpus: ${tried} inputs over ${fields} fields and targets of ${routes.length} routes; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
    expect(failures).toEqual([]);
    expect(tried).toBeGreaterThanOrEqual(500);
  }, 300_000);
});
