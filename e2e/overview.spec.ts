import { expect, test, type Locator, type Page } from '@playwright/test';
import type { AccountListResponse, DashboardMetricsResponse, TradeItem } from '@pipsense/contract';
import { readStackFacts } from './stack/stack-facts';
import {
  allTradesByApi,
  apiAs,
  canvasPainted,
  fakeLlmControl,
  homeMoney,
  signInByApi,
  rate,
  signedMoney,
  newUser,
  pageApi,
  registerByApi,
  syncedOandaUser,
  tenThousandths,
} from './support';
import { saveOanda } from '../apps/server/src/test/oanda-user';

/*
 * The Overview end to end (docs/PRODUCT.md, Overview; METRICS.md): the built app in Chromium against the OANDA
 * simulator of e2e/stack. The headline numbers are recomputed here from the trades API, by the definitions, not read
 * off the metrics response.
 */

const OVERVIEW = '/overview';
const CARD_TITLES = [
  'Total Trades',
  'Total Accounts',
  'Win / Loss Ratio',
  'Top Instrument',
  'Avg Holding Time',
  'Weekly Trades',
  'Performance Summary',
  'AI Insights',
  'Behavioral Analysis',
  'Risk Assessment',
  'Quick Wins',
  'Long Term Strategy',
  'Performance Metrics',
  'Trading Profile',
  'Instrument Breakdown',
] as const;
/** Cards whose value does not exist without trades: '-' (the counts stay numbers). */
const EMPTY_WITHOUT_TRADES = CARD_TITLES.filter(
  (t) => t !== 'Total Trades' && t !== 'Total Accounts' && t !== 'Weekly Trades',
);

const card = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
const cardValue = (page: Page, title: string) => card(page, title).locator('.metric-card-value');

/** '45s', '12m', '3h 12m', '2d 4h': the mean holding time rounded to the last unit shown (METRICS.md). */
function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.round(ms / 60_000);
  if (m < 60) return `${m}m`;
  if (m < 24 * 60) return `${Math.floor(m / 60)}h ${m % 60}m`;
  const h = Math.round(ms / 3_600_000);
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

interface Expected {
  tradeCount: number;
  accountCount: number;
  winLoss: string;
  topInstrument: string;
  avgHoldingTime: string;
  weeklyTrades: number;
  netRealized: string;
}

/** The headline cards by METRICS.md's definitions, from every trade the API lists. */
function expectedFrom(trades: TradeItem[], now: number): Expected {
  const closed = trades.filter((t) => t.state === 'CLOSED');
  const wins = closed.filter((t) => tenThousandths(t.realizedPL) > 0n).length;
  const losses = closed.filter((t) => tenThousandths(t.realizedPL) < 0n).length;
  const byInstrument = new Map<string, number>();
  for (const t of trades) byInstrument.set(t.instrument, (byInstrument.get(t.instrument) ?? 0) + 1);
  const [top] = [...byInstrument].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const held = closed.reduce((sum, t) => sum + (Date.parse(t.closeTime!) - Date.parse(t.openTime)), 0);
  const week = now - 7 * 24 * 3_600_000;
  return {
    tradeCount: trades.length,
    accountCount: new Set(trades.map((t) => t.accountId)).size,
    winLoss: `${rate(wins, closed.length)} / ${rate(losses, closed.length)}`,
    topInstrument: top![0].replace('_', '/'),
    avgHoldingTime: duration(held / closed.length),
    weeklyTrades: trades.filter((t) => Date.parse(t.openTime) > week).length,
    netRealized: signedMoney(closed.reduce((sum, t) => sum + tenThousandths(t.realizedPL), 0n)),
  };
}

async function switchPlatform(page: Page, from: string, to: string) {
  await page.getByRole('button', { name: `Trading platform: ${from}` }).click();
  await page.getByRole('button', { name: new RegExp(`^${to}`) }).click();
}

async function expectChartDrawn(chart: Locator, name: string) {
  await expect(chart).toBeVisible();
  await expect.poll(() => canvasPainted(chart), { message: `${name} drew` }).toBe(true);
}

test('a synced trader sees the cards the engine computes, drawn charts, and the platform switch', async ({
  page,
  baseURL,
}) => {
  const facts = readStackFacts(baseURL);
  // Gemini: no provider on the server, so the built-in analysis writes the insights at once.
  const { token } = await syncedOandaUser(page, facts, { prefix: 'ovw', aiPlatform: 'gemini' });
  const trades = await allTradesByApi(page, token);
  const expected = expectedFrom(trades, Date.now());
  const accounts = await apiAs<AccountListResponse>(page, token, '/api/v1/account/get_accounts?page=1&limit=10');

  // The simulator's book, the trades API and the accounts API agree before the screen is compared with them.
  expect(expected.tradeCount).toBe(facts.practice.accounts.reduce((n, a) => n + a.trades, 0));
  expect(expected.accountCount).toBe(facts.practice.accounts.length);
  expect(accounts.total).toBe(facts.practice.accounts.length);

  await page.goto(OVERVIEW);
  await expect(page.getByText('Dashboard – OANDA', { exact: true })).toBeVisible();

  await test.step('every card of the Overview, with the numbers computed from the trades', async () => {
    for (const title of CARD_TITLES) await expect(card(page, title), title).toBeVisible();
    await expect(cardValue(page, 'Total Trades')).toHaveText(expected.tradeCount.toLocaleString('en-US'));
    await expect(cardValue(page, 'Total Accounts')).toHaveText(String(expected.accountCount));
    await expect(cardValue(page, 'Win / Loss Ratio')).toHaveText(expected.winLoss);
    await expect(cardValue(page, 'Top Instrument')).toHaveText(expected.topInstrument);
    await expect(cardValue(page, 'Avg Holding Time')).toHaveText(expected.avgHoldingTime);
    await expect(cardValue(page, 'Weekly Trades')).toHaveText(expected.weeklyTrades.toLocaleString('en-US'));
    await expect(cardValue(page, 'Performance Summary')).toContainText(expected.tradeCount.toLocaleString('en-US'));
    for (const title of EMPTY_WITHOUT_TRADES)
      await expect(cardValue(page, title), `${title} has a value`).not.toHaveText('-');
    // One group per traded instrument.
    const instruments = new Set(trades.map((t) => t.instrument.replace('_', '/')));
    await expect(card(page, 'Instrument Breakdown').locator('.metric-group-title')).toHaveCount(instruments.size);
    await expect(page.getByText('Built-in analysis', { exact: true })).toBeVisible();
  });

  await test.step('the charts draw', async () => {
    // The practice accounts are in two currencies and the simulator has their daily closes: the money is converted
    // into the home currency, and the charts cover every account (docs/decisions/024-currencies-never-mixed.md).
    const money = await homeMoney(page, token, facts);
    await expect(page.getByRole('region', { name: `Money in ${money.home}` })).toBeVisible();
    const converted = trades.map((t) =>
      t.state === 'CLOSED' ? { ...t, realizedPL: money.toHome(t, t.realizedPL) } : t,
    );
    const equity = page.getByRole('region', { name: 'Equity Curve' });
    await expect(equity.getByRole('definition').first()).toHaveText(expectedFrom(converted, Date.now()).netRealized);
    await expectChartDrawn(equity, 'the equity curve');
    await expectChartDrawn(page.getByRole('img', { name: 'Net P/L of closed trades by weekday' }), 'weekday chart');
    await expectChartDrawn(
      page.getByRole('img', { name: 'Net P/L of closed trades by hour of the day' }),
      'hour chart',
    );
    const bars = page.getByRole('list', { name: 'Net P/L by instrument' }).getByRole('listitem');
    expect(await bars.count()).toBeGreaterThan(0);
  });

  await test.step('MetaTrader has no import yet, TradeView is not connected; back to OANDA reloads the metrics', async () => {
    const metatrader = page.waitForResponse(
      (r) => r.url().includes('/api/v1/dashboard/metrics') && r.url().includes('platform=metatrader'),
    );
    await switchPlatform(page, 'OANDA', 'MetaTrader');
    expect((await metatrader).status()).toBe(200);
    await expect(page.getByText('Dashboard – MetaTrader', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No MetaTrader trades yet' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Import' })).toBeVisible();

    await switchPlatform(page, 'MetaTrader', 'TradeView');
    await expect(page.getByText('Dashboard – TradeView', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'TradeView is not connected' })).toBeVisible();
    await expect(card(page, 'Total Trades')).toHaveCount(0);

    // The 'Show OANDA analytics' way back reloads the metrics.
    const reloaded = page.waitForResponse(
      (r) => r.url().includes('/api/v1/dashboard/metrics') && r.request().method() === 'GET',
    );
    await page.getByRole('button', { name: 'Show OANDA analytics' }).click();
    expect((await reloaded).status()).toBe(200);
    await expect(page.getByText('Dashboard – OANDA', { exact: true })).toBeVisible();
    await expect(cardValue(page, 'Total Trades')).toHaveText(expected.tradeCount.toLocaleString('en-US'));
    await expect(cardValue(page, 'Win / Loss Ratio')).toHaveText(expected.winLoss);
    await expect(cardValue(page, 'Total Accounts')).toHaveText(String(expected.accountCount));
  });
});

test('without trades the cards show "-" and the screen points to Settings and the Sync buttons', async ({
  page,
  baseURL,
}) => {
  const facts = readStackFacts(baseURL);
  const user = newUser('ovwe');
  await registerByApi(page, user);
  const token = await signInByApi(page, user);
  await page.goto(OVERVIEW);

  await expect(page.getByText('Dashboard – OANDA', { exact: true })).toBeVisible();
  const callout = page.getByRole('status').filter({ hasText: 'No trades yet' });
  await expect(callout).toContainText('Connect OANDA in Settings → Trading Platforms');
  await expect(callout).toContainText('Press Sync on Trades');
  await expect(callout).toContainText('Press Sync on Accounts');
  await expect(cardValue(page, 'Total Trades')).toHaveText('0');
  await expect(cardValue(page, 'Total Accounts')).toHaveText('0');
  for (const title of EMPTY_WITHOUT_TRADES) await expect(cardValue(page, title), title).toHaveText('-');
  await expect(page.getByText('No closed trades yet: the curve starts with the first closed trade.')).toBeVisible();

  await callout.getByRole('link', { name: 'Open Trades' }).click();
  await expect(page).toHaveURL(/\/trades\/all_trades$/);
  await page.goto(OVERVIEW);
  await callout.getByRole('link', { name: 'Open Trading Platforms' }).click();
  await expect(page).toHaveURL(/\/settings\/trading_platforms$/);

  // Connected but not synced yet: the first step is done, the Sync buttons are what is left.
  await saveOanda(pageApi(page, token), { oanda: { accessToken: facts.practice.token } });
  await page.goto(OVERVIEW);
  await expect(callout.getByText('Done', { exact: true })).toBeVisible();
  await expect(callout.getByRole('link', { name: 'Open Trading Platforms' })).toHaveCount(0);
  await expect(callout.getByRole('link', { name: 'Open Accounts' })).toBeVisible();
  await expect(cardValue(page, 'Win / Loss Ratio')).toHaveText('-');
});

test('with OpenAI as the default the insights go from pending to the provider (or its fallback note)', async ({
  page,
  baseURL,
}) => {
  const facts = readStackFacts(baseURL);
  const fake = fakeLlmControl(facts.openaiUrl);
  await fake.reset();
  const { token } = await syncedOandaUser(page, facts, { prefix: 'ovwai', aiPlatform: 'openai' });
  const timeZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);

  await page.goto(OVERVIEW);
  // The first view of freshly synced data starts the provider; the built-in text shows meanwhile.
  const source = page.locator('.insights-source');
  await expect(source.getByRole('status')).toBeVisible();
  await expect(source.locator('.insights-source-name')).toHaveText('Built-in analysis');
  await expect(source.getByRole('status')).toBeHidden();

  const metrics = await apiAs<DashboardMetricsResponse>(
    page,
    token,
    `/api/v1/dashboard/metrics?timeZone=${encodeURIComponent(timeZone)}`,
  );
  const { insights } = metrics.data;
  expect(['ready', 'fallback']).toContain(insights.status);
  const aiCard = cardValue(page, 'AI Insights');
  if (insights.status === 'ready') {
    expect(insights.source).toBe('openai');
    expect(insights.model).toBe('gpt-4o');
    await expect(source.locator('.insights-source-name')).toHaveText('Insights by OpenAI (gpt-4o)');
    // The cards are the provider's, as the server stored them.
    const [firstTitle, firstText] = Object.entries(metrics.data.aiInsights ?? {})[0] ?? [];
    expect(firstTitle, 'the provider wrote AI Insights').toBeDefined();
    await expect(aiCard).toContainText(firstTitle!);
    await expect(aiCard).toContainText(String(firstText));
  } else {
    expect(insights.source).toBe('builtin');
    expect(insights.note).toBeTruthy();
    await expect(source.locator('.insights-source-name')).toHaveText('Built-in analysis');
    await expect(source).toContainText(insights.note!);
  }

  // The provider was asked once, with the model for trading and a strict schema for the answer.
  const asked = (await fake.requests()).filter((r) => r.jsonSchema !== undefined);
  expect(asked.map((r) => r.model)).toEqual(['gpt-4o']);
});
