import { expect, type Locator, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  divideDecimals,
  multiplyDecimals,
  roundDecimal,
  type AiPlatformId,
  type HomeCurrencyResponse,
  type TradeItem,
  type TradeListResponse,
} from '@pipsense/contract';
import type { FakeReply, FakeRequest } from '@pipsense/fake-llm';
import { connectOanda, type ApiCall } from '../apps/server/src/test/oanda-user';
import { mailsTo } from './stack/stack-client';
import type { StackFacts } from './stack/stack-facts';

/** Where the specs save the screenshots of their screens (to look at, not compared). */
export const SHOTS = '.test-results/screens';

/** The two sizes a journey is run and photographed at. */
export const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

export function newUser(prefix = 'e2e') {
  const tag = `${prefix}${randomUUID().slice(0, 8)}`;
  return { username: tag, email: `${tag}@example.com`, password: 'correct horse battery' };
}

export type User = ReturnType<typeof newUser>;

/** Registers through the API (fast) — the register screen itself has its own test. */
export async function registerByApi(page: Page, user: User): Promise<void> {
  const res = await page.request.post('/api/v1/auth/register', { data: user });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * Confirms a registered user's address with the token of the link mailed at registration (the stack's SMTP server),
 * as opening it would: the app mails its notices (rule alerts, weekly reviews) only to a confirmed address. The link
 * itself is recovery.spec's subject.
 */
export async function confirmEmailByApi(page: Page, facts: StackFacts, user: User): Promise<void> {
  await expect
    .poll(async () => (await mailsTo(facts, user.email)).length, { message: `the confirmation mail to ${user.email}` })
    .toBeGreaterThan(0);
  const [confirmation] = await mailsTo(facts, user.email);
  const res = await page.request.post('/api/v1/auth/confirm_email', { data: { token: confirmation!.token } });
  expect(res.status(), await res.text()).toBe(200);
}

export async function signIn(page: Page, user: User): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/overview');
}

/** A signed-in page for a fresh user. */
export async function signedIn(page: Page, prefix?: string): Promise<User> {
  const user = newUser(prefix);
  await registerByApi(page, user);
  await signIn(page, user);
  return user;
}

/** A toast (react-toastify renders each one as an alert) with this text. */
export function toast(page: Page, text: string | RegExp) {
  return page.getByRole('alert').filter({ hasText: text });
}

/**
 * The session token the app keeps in localStorage (JSON-encoded; docs/PRODUCT.md, Data shapes), for API calls as the
 * signed-in user.
 */
export async function sessionToken(page: Page): Promise<string> {
  const stored = await page.evaluate(() => localStorage.getItem('token'));
  expect(stored, 'no session token in localStorage').not.toBeNull();
  return JSON.parse(stored!) as string;
}

/** Signs in through the API and stores the token where the app reads it: for tests whose subject is not sign-in. */
export async function signInByApi(page: Page, user: User): Promise<string> {
  const res = await page.request.post('/api/v1/auth/login', {
    data: { username: user.username, password: user.password },
  });
  expect(res.status(), await res.text()).toBe(200);
  const { token } = (await res.json()) as { token: string };
  await page.goto('/login');
  await page.evaluate((t) => localStorage.setItem('token', JSON.stringify(t)), token);
  return token;
}

/** GET or POST an API path as a signed-in user; fails the test unless the answer is 200. */
export async function apiAs<T>(page: Page, token: string, path: string, body?: unknown): Promise<T> {
  const headers = { Authorization: `Bearer ${token}` };
  const res =
    body === undefined
      ? await page.request.get(path, { headers })
      : await page.request.post(path, { headers, data: body });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

/** The API as a signed-in user through the page's request context, for the shared set-ups (oanda-user.ts). */
export function pageApi(page: Page, token: string): ApiCall {
  return async ({ method, path, body }) => {
    const headers = { Authorization: `Bearer ${token}` };
    const res =
      method === 'GET'
        ? await page.request.get(path, { headers })
        : await page.request.post(path, { headers, ...(body === undefined ? {} : { data: body }) });
    return { status: res.status(), text: await res.text() };
  };
}

/** Every trade of the signed-in user as the API lists them, page by page (docs/PRODUCT.md, HTTP calls: limit 10). */
export async function allTradesByApi(page: Page, token: string): Promise<TradeItem[]> {
  const trades: TradeItem[] = [];
  for (let n = 1; ; n++) {
    const body = await apiAs<TradeListResponse>(page, token, `/api/v1/trade/get_trade_history?page=${n}&limit=10`);
    trades.push(...body.data);
    if (n >= body.pages || body.data.length === 0) return trades;
  }
}

/**
 * A fresh user, signed in through the API (the page is left on /login with the token stored), with the practice
 * simulator saved as their OANDA connection (demo, every account), `aiPlatform` as the default AI platform, and
 * accounts and trades synced: for screens whose subject is not settings or sync. `accessToken` picks another of the
 * stack's practice tokens (the scratch account's, for a test that trades now); the shared demo accounts' by default.
 */
export async function syncedOandaUser(
  page: Page,
  facts: StackFacts,
  options: { prefix: string; aiPlatform: AiPlatformId; accessToken?: string },
): Promise<{ user: User; token: string }> {
  const user = newUser(options.prefix);
  await registerByApi(page, user);
  const token = await signInByApi(page, user);
  const accessToken = options.accessToken ?? facts.practice.token;
  await connectOanda(pageApi(page, token), { ai: options.aiPlatform, oanda: { accessToken } });
  return { user, token };
}

/**
 * The control endpoints of a fake LLM server of the stack (tools/fake-llm: GET /_fake/requests, POST /_fake/replies,
 * POST /_fake/reset). `url` may end in /v1 (the fake OpenAI's base URL): the endpoints sit at the root.
 */
export function fakeLlmControl(url: string) {
  const at = (path: string) => new URL(path, url).toString();
  async function call<T>(path: string, body?: unknown): Promise<T> {
    const res = await fetch(at(path), {
      method: body === undefined && path.endsWith('requests') ? 'GET' : 'POST',
      ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${path} → ${res.status} ${text}`);
    return JSON.parse(text) as T;
  }
  return {
    /** Clears the request log and any scripted replies: back to the default behaviour. */
    reset: () => call<{ ok: boolean }>('/_fake/reset', {}),
    /** Scripts the next replies, one per model request, in order. */
    script: (...replies: FakeReply[]) => call<{ queued: number }>('/_fake/replies', replies),
    /** Every model request received since the last reset, oldest first. */
    requests: () => call<FakeRequest[]>('/_fake/requests'),
  };
}

/** Whether any canvas inside holds a painted pixel: a chart drew, not just mounted. */
export function canvasPainted(container: Locator): Promise<boolean> {
  return container.evaluate((el) =>
    [...el.querySelectorAll('canvas')].some((canvas) => {
      if (!canvas.width || !canvas.height) return false;
      const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
      if (!data) return false;
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
      return false;
    }),
  );
}

const MT5_FIXTURES = new URL('../apps/server/src/modules/import/parse/fixtures/', import.meta.url);
/** The MT5 report (the terminal's UTF-16 HTML) the import journeys upload, and what the parser's tests expect of it. */
export const MT5_REPORT = readFileSync(new URL('mt5-report.html', MT5_FIXTURES));
export const MT5_EXPECTED = JSON.parse(readFileSync(new URL('mt5-report.expected.json', MT5_FIXTURES), 'utf8')) as {
  account: { number: string; name: string; currency: string };
  /** Times as the report prints them: the broker's server clock ('2024.04.02 09:15:07'). */
  closedTrades: Array<{
    positionId: string;
    symbol: string;
    openTime: string;
    closeTime: string;
    commission: string;
    swap: string;
    profit: string;
  }>;
  openTrades: Array<{ positionId: string; openTime: string }>;
  balanceOperations: Array<{ time: string; amount: string; comment: string }>;
  totals: { netProfit: string };
};

/** How many trades an import of MT5_REPORT stores: its closed positions and the one still open. */
export const MT5_STORED_TRADES = MT5_EXPECTED.closedTrades.length + MT5_EXPECTED.openTrades.length;

/** The status a confirmed import of MT5_REPORT ends with. */
export const importedStatus = (page: Page) =>
  page.getByRole('status').filter({ hasText: new RegExp(`^Imported ${MT5_STORED_TRADES} trades`) });

/**
 * Money of the practice simulator's accounts in the trader's home currency, converted the way the currency rule says
 * (docs/decisions/024-currencies-never-mixed.md) but worked out here from the simulator's own candles: an amount of
 * another currency times the rate of its UTC close day — the mid close of the last complete daily candle that ended by
 * the day's end, of the direct pair, else one over the inverse pair's (20 decimals) — rounded to 4 decimals. The
 * decimal arithmetic is the contract's; which rate, which day and where to round are this function's.
 */
export async function homeMoney(page: Page, token: string, facts: StackFacts) {
  const home = (await apiAs<HomeCurrencyResponse>(page, token, '/api/v1/account/get_home_currency')).data.currency;
  const currencyOf = new Map(facts.practice.accounts.map((a) => [a.id, a.currency]));
  const DAY = 86_400_000;
  const now = Date.now();
  async function closes(pair: string): Promise<{ end: number; close: string }[] | null> {
    const query = new URLSearchParams({
      granularity: 'D',
      price: 'M',
      from: new Date(now - 5 * 366 * DAY).toISOString(),
      to: new Date(now).toISOString(),
    });
    const res = await fetch(`${facts.practice.url}/v3/instruments/${pair}/candles?${query}`, {
      headers: { Authorization: `Bearer ${facts.practice.token}` },
    });
    if (!res.ok) return null;
    const body = (await res.json()) as { candles: { time: string; complete: boolean; mid: { c: string } }[] };
    return body.candles
      .filter((c) => c.complete)
      .map((c) => ({ end: Date.parse(c.time) + DAY, close: c.mid.c }))
      .sort((a, b) => a.end - b.end);
  }
  const rates = new Map<string, (day: string) => string>();
  for (const currency of new Set(currencyOf.values())) {
    if (currency === home) continue;
    const direct = await closes(`${currency}_${home}`);
    const series = direct ?? (await closes(`${home}_${currency}`));
    if (!series) throw new Error(`the simulator lists neither ${currency}_${home} nor ${home}_${currency}`);
    rates.set(currency, (day) => {
      const dayEnd = Date.parse(`${day}T00:00:00Z`) + DAY;
      const last = series.filter((c) => c.end <= dayEnd).at(-1);
      if (!last) throw new Error(`no daily close of ${currency} by ${day}`);
      return direct ? last.close : divideDecimals('1', last.close, 20);
    });
  }
  return {
    home,
    /** A closed trade's amount (a decimal string of its account's currency) in the home currency, 4 decimals. */
    toHome(trade: { accountId: string; closeTime: string | null }, amount: string): string {
      const currency = currencyOf.get(trade.accountId);
      if (!currency) throw new Error(`account ${trade.accountId} is not one of the simulator's`);
      if (currency === home) return amount;
      if (!trade.closeTime) throw new Error(`trade of ${trade.accountId} is open: it has no close day`);
      return roundDecimal(multiplyDecimals(amount, rates.get(currency)!(trade.closeTime.slice(0, 10))), 4);
    },
  };
}

export type HomeMoney = Awaited<ReturnType<typeof homeMoney>>;

// ——— exact money, worked out apart from the app's own formatters ———

/** A decimal string in 1/10,000 units (OANDA's precision), for exact sums and comparisons. */
export function tenThousandths(value: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(value);
  if (!m) throw new Error(`not a decimal: ${value}`);
  const n = BigInt(m[2]! + (m[3] ?? '').padEnd(4, '0').slice(0, 4));
  return m[1] === '-' ? -n : n;
}

/**
 * 1/10,000 units as money with two decimals, half away from zero, grouped, with a sign ('+1,234.56', '-0.50'; no plus
 * when `plus` is false); what rounds to zero is '0.00'.
 */
export function signedMoney(units: bigint, plus = true): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const cents = abs / 100n + (abs % 100n >= 50n ? 1n : 0n);
  if (cents === 0n) return '0.00';
  const text = `${(cents / 100n).toLocaleString('en-US')}.${(cents % 100n).toString().padStart(2, '0')}`;
  return negative ? `-${text}` : plus ? `+${text}` : text;
}

/** A rate as the Overview writes it: one decimal, half up, computed on integers so no float rounding creeps in. */
export function rate(part: number, whole: number): string {
  const tenths = Math.floor((part * 1000 * 2 + whole) / (whole * 2));
  return `${Math.floor(tenths / 10)}.${tenths % 10}%`;
}
