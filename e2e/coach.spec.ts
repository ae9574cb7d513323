import { expect, test, type Page } from '@playwright/test';
import type {
  CoachSettings,
  PatternResult,
  TradeReviewData,
  WeeklyReview,
  WeeklyReviewListItem,
} from '@pipsense/contract';
import type { WireTrade } from '@pipsense/oanda-sim';
import { connectOanda } from '../apps/server/src/test/oanda-user';
import type { PlantStep } from './stack/sim-control';
import { mailsTo, simControl } from './stack/stack-client';
import { readStackFacts, type StackFacts } from './stack/stack-facts';
import {
  apiAs,
  confirmEmailByApi,
  newUser,
  pageApi,
  registerByApi,
  SHOTS,
  signedMoney,
  signInByApi,
  tenThousandths,
  toast,
  VIEWPORTS,
} from './support';

/*
 * The coach end to end (docs/coach.md), at 1280×800 and 390×844, with no AI provider for the trader (their default AI
 * platform has no key, so the built-in analyst writes every review): a book planted on the simulator's empty account
 * (three weeks of ordinary EUR_USD trades, and last week, in the trader's zone, a loss followed five minutes later by
 * a trade three times its size that lost too), a trade reviewed from its modal with the facts its points cite, the
 * revenge pattern with its cost, the weekly email turned on, last week's review opened (made on that request) and
 * its email read from the stack's SMTP server. Expected figures come from the simulator's book, never the screen.
 */

const ZONE = 'America/New_York';
const INSTRUMENT = 'EUR_USD';
const UNITS = 10_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The UTC midnight of this week's Monday as the trader's zone dates it (hours below are UTC, on the same date). */
function thisMonday(now = Date.now()): number {
  const local = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' })
    .format(now)
    .split('-')
    .map(Number) as [number, number, number];
  const date = Date.UTC(local[0], local[1] - 1, local[2]);
  const weekday = new Date(date).getUTCDay() || 7;
  return date - (weekday - 1) * DAY;
}

/** The ISO week of a UTC date (the week of its Thursday). */
function isoWeek(ms: number): string {
  const d = new Date(ms);
  const thursday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 4 - (d.getUTCDay() || 7));
  const year = new Date(thursday).getUTCFullYear();
  const week = Math.ceil(((thursday - Date.UTC(year, 0, 1)) / DAY + 1) / 7);
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/**
 * The planted book, oldest first: hours are UTC (05:00–12:00 in New York, inside the London and New York sessions),
 * every trade with a 20-pip stop. `lose` picks the side the price went against between open and close.
 */
function plan(lastMonday: number) {
  const trades: { key: string; open: number; close: number; units: number; lose?: boolean }[] = [];
  for (const weeksBack of [2, 1]) {
    const monday = lastMonday - weeksBack * 7 * DAY;
    for (const day of [1, 2, 3]) {
      const base = monday + day * DAY;
      trades.push({ key: `w${weeksBack}d${day}a`, open: base + 10 * HOUR, close: base + 11.5 * HOUR, units: UNITS });
      trades.push({ key: `w${weeksBack}d${day}b`, open: base + 15 * HOUR, close: base + 16 * HOUR, units: UNITS });
    }
  }
  const tuesday = lastMonday + DAY;
  trades.push(
    { key: 'monday', open: lastMonday + 10 * HOUR, close: lastMonday + 11 * HOUR, units: UNITS },
    { key: 'loss', open: tuesday + 10 * HOUR, close: tuesday + 10 * HOUR + 40 * MINUTE, units: UNITS, lose: true },
    // Five minutes after the loss closed, three times its size.
    {
      key: 'revenge',
      open: tuesday + 10 * HOUR + 45 * MINUTE,
      close: tuesday + 11 * HOUR + 30 * MINUTE,
      units: 3 * UNITS,
      lose: true,
    },
    { key: 'wednesday', open: tuesday + DAY + 15 * HOUR, close: tuesday + DAY + 16 * HOUR, units: UNITS },
    { key: 'thursday', open: tuesday + 2 * DAY + 10 * HOUR, close: tuesday + 2 * DAY + 11 * HOUR, units: UNITS },
  );
  return trades;
}

/** Plants the book once per stack (both sizes' journeys read the same account). */
async function plantBook(facts: StackFacts) {
  const sim = simControl(facts, 'practice');
  const account = facts.planted.accountId;
  if ((await sim.trades(account)).length === 0) {
    const lastMonday = thisMonday() - 7 * DAY;
    const steps: PlantStep[] = [];
    for (const t of plan(lastMonday)) {
      const entry = Number((await sim.price(INSTRUMENT, t.open)).mid);
      const exit = Number((await sim.price(INSTRUMENT, t.close)).mid);
      const long = t.lose ? exit <= entry : true;
      const units = long ? t.units : -t.units;
      const stopLoss = (long ? entry - 0.002 : entry + 0.002).toFixed(5);
      steps.push({ at: t.open, key: t.key, open: { instrument: INSTRUMENT, units, stopLoss } });
      steps.push({ at: t.close, close: t.key });
    }
    steps.sort((a, b) => a.at - b.at);
    await sim.plant(account, steps);
  }
  const trades = await sim.trades(account, 'CLOSED');
  return { account, trades };
}

/** Money as the coach screens write it: two decimals, grouped, the currency after, no plus sign. */
const money = (units: bigint, currency = 'USD') => `${signedMoney(units, false)} ${currency}`;
const netOf = (trades: readonly WireTrade[]) =>
  trades.reduce((sum, t) => sum + tenThousandths(t.realizedPL) + tenThousandths(t.financing ?? '0'), 0n);

/** The page fits its width: nothing scrolls sideways (a phone's 390 px included). */
async function fitsWidth(page: Page) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll, 'the page scrolls sideways').toBeLessThanOrEqual(width);
}

/** A coach screen through the sidebar's Coach group, from a freshly loaded page (as rules.spec opens My Rules). */
async function openSection(page: Page, phone: boolean, link: 'Patterns' | 'Weekly Reviews') {
  await page.goto('/overview');
  if (phone) await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await page.getByRole('link', { name: 'Coach', exact: true }).click();
  await page.getByRole('link', { name: link, exact: true }).click();
  await expect(page.locator('.page-heading')).toHaveText(link);
}

for (const viewport of VIEWPORTS) {
  const phone = viewport.name === 'phone';

  test.describe(`coach at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height }, timezoneId: ZONE });

    test('review a trade, see its pattern and cost, open last week and read its email', async ({ page, baseURL }) => {
      const facts = readStackFacts(baseURL);
      const { account, trades } = await plantBook(facts);
      const lastMonday = thisMonday() - 7 * DAY;
      const week = isoWeek(lastMonday);
      const inLastWeek = trades.filter((t) => {
        const close = Date.parse(t.closeTime!);
        return close >= lastMonday && close < lastMonday + 7 * DAY;
      });
      expect(inLastWeek).toHaveLength(5);
      const revenge = trades.find((t) => Math.abs(Number(t.initialUnits)) === 3 * UNITS)!;
      expect(Number(revenge.realizedPL)).toBeLessThan(0);

      // A trader in New York with the planted account, whose AI platform has no key: the built-in analyst.
      const user = newUser(`co${viewport.name[0]}`);
      await registerByApi(page, user);
      // Confirmed: the weekly review is mailed to a confirmed address only.
      await confirmEmailByApi(page, facts, user);
      const token = await signInByApi(page, user);
      await apiAs(page, token, '/api/v1/account/update_time_zone', { timeZone: ZONE });
      await connectOanda(pageApi(page, token), { ai: 'gemini', oanda: { accessToken: facts.planted.token } });

      // The revenge trade's modal, found through the trade list's pattern filter.
      await page.goto(`/trades/all_trades?pattern=revenge_trading`);
      const table = page.getByRole('table', { name: 'Trades' });
      const rows = table.getByRole('rowgroup').last().getByRole('row');
      await expect(rows).toHaveCount(1);
      await rows.first().getByRole('button', { name: 'View Trade' }).click();
      const modal = page.getByRole('dialog', { name: 'Trade Details' });
      const coach = modal.getByRole('region', { name: 'Coach' });
      // Losses in a row before it flag it too (size escalation, as the planted outcomes fall).
      await expect(coach.getByRole('list', { name: 'Patterns' }).getByText('Revenge trading')).toBeVisible();
      await coach.getByRole('button', { name: 'Review this trade' }).click();
      await expect(coach.getByText('Written by: built-in analysis')).toBeVisible();
      const path = `/api/v1/coach/get_trade_review/${encodeURIComponent(account)}/${revenge.id}`;
      const stored = (await apiAs<{ data: TradeReviewData }>(page, token, path)).data;
      expect(stored.source).toBe('builtin');
      expect(stored.stale).toBe(false);
      expect(stored.patterns).toContain('revenge_trading');
      const names = stored.facts.map((f) => f.name);
      expect(names).toEqual(expect.arrayContaining(['minutes_after_loss', 'size_vs_usual', 'result_r']));
      const review = stored.review!;
      await expect(coach.getByRole('list', { name: 'To improve' }).getByRole('listitem')).toHaveText(
        review.toImprove.map((p) => p.text),
      );
      await expect(coach.getByLabel(`Execution score ${review.score.value} out of 5`)).toBeVisible();

      // Hovering the first point to improve marks the facts it cites, and only those; focus does the same.
      const factItems = coach.getByRole('list', { name: 'Facts' }).getByRole('listitem');
      const active = () => factItems.and(page.locator('[aria-current="true"]'));
      const first = review.toImprove[0]!;
      const point = coach.getByRole('list', { name: 'To improve' }).getByRole('listitem').first();
      await point.hover();
      await expect(active()).toHaveCount(first.facts.length);
      for (const name of first.facts)
        await expect(factItems.and(page.locator(`[data-fact="${name}"]`))).toHaveAttribute('aria-current', 'true');
      await page.screenshot({ path: `${SHOTS}/coach-review-${viewport.name}.png` });
      await page.mouse.move(0, 0);
      await expect(active()).toHaveCount(0);
      const action = coach.getByRole('list', { name: 'Next time' }).getByRole('listitem');
      await action.focus();
      await expect(active()).toHaveCount(review.action.facts.length);
      for (const name of review.action.facts)
        await expect(factItems.and(page.locator(`[data-fact="${name}"]`))).toHaveAttribute('aria-current', 'true');
      // The facts, scrolled to with the point still focused: the cited ones marked, the active ones outlined.
      await active().last().scrollIntoViewIfNeeded();
      await expect(active()).toHaveCount(review.action.facts.length);
      await page.screenshot({ path: `${SHOTS}/coach-review-facts-${viewport.name}.png` });
      await modal.getByRole('button', { name: 'Close', exact: true }).last().click();
      await expect(modal).toBeHidden();

      // Patterns: revenge trading with its one trade and its cost against the others.
      await openSection(page, phone, 'Patterns');
      const patterns = (await apiAs<{ data: PatternResult[] }>(page, token, '/api/v1/coach/get_patterns')).data;
      const revengeResult = patterns.find((p) => p.pattern === 'revenge_trading')!;
      expect(revengeResult.trades).toEqual([{ accountId: account, tradeId: revenge.id }]);
      const card = page.getByRole('region', { name: 'Revenge trading' });
      await expect(card.locator('.coach-count')).toHaveText('1 trade');
      const others = trades.filter((t) => t.id !== revenge.id);
      await expect(card.locator('.coach-compare').first()).toContainText(money(netOf([revenge])));
      await expect(card.locator('.coach-compare').first()).toContainText(money(netOf(others)));
      await card.scrollIntoViewIfNeeded();
      await fitsWidth(page);
      await page.screenshot({ path: `${SHOTS}/coach-patterns-${viewport.name}.png`, fullPage: true });

      // Another platform's patterns: the switch asks for MetaTrader's, where this trader imported nothing.
      const asked = page.waitForRequest(
        (r) => r.url().includes('/get_patterns?') && r.url().includes('platform=metatrader'),
      );
      await page.getByRole('button', { name: 'Trading platform: OANDA' }).click();
      await page.getByRole('button', { name: /MetaTrader/ }).click();
      await asked;
      await expect(page.getByText('No closed trades in this range')).toBeVisible();
      await expect(card).toBeHidden();
      await fitsWidth(page);
      await page.screenshot({ path: `${SHOTS}/coach-patterns-metatrader-${viewport.name}.png`, fullPage: true });
      await page.getByRole('button', { name: 'Trading platform: MetaTrader' }).click();
      await page.getByRole('button', { name: /OANDA/ }).click();
      await expect(card.locator('.coach-count')).toHaveText('1 trade');

      // The weekly email, turned on in the coach settings.
      await page.getByRole('button', { name: 'Coach settings' }).click();
      const settings = page.getByRole('form', { name: 'Coach settings' });
      await settings.getByLabel('Email my weekly review').check();
      await page.screenshot({ path: `${SHOTS}/coach-settings-${viewport.name}.png` });
      await settings.getByRole('button', { name: 'Save settings' }).click();
      await expect(toast(page, 'Coach settings saved')).toBeVisible();
      const saved = await apiAs<{ data: CoachSettings }>(page, token, '/api/v1/coach/get_settings');
      expect(saved.data.emailWeekly).toBe(true);

      // Weekly Reviews: none yet; last week opened, made on that request.
      await openSection(page, phone, 'Weekly Reviews');
      await expect(page.getByText('No weekly reviews yet')).toBeVisible();
      await fitsWidth(page);
      await page.screenshot({ path: `${SHOTS}/coach-weeks-empty-${viewport.name}.png` });
      await page.getByRole('button', { name: 'Open last week' }).click();
      await expect(page).toHaveURL(new RegExp(`week=${week}$`));
      const report = page.getByRole('article', { name: `Weekly review ${week}` });
      await expect(report).toBeVisible();
      const net = netOf(inLastWeek);
      const wins = inLastWeek.filter((t) => tenThousandths(t.realizedPL) > 0n).length;
      await expect(report.getByRole('group', { name: 'Trades' })).toContainText('5');
      await expect(report.getByRole('group', { name: 'Net P/L' })).toContainText(money(net));
      await expect(report.getByRole('group', { name: 'Win rate' })).toContainText(`${((wins / 5) * 100).toFixed(1)} %`);
      const stored7 = (await apiAs<{ data: WeeklyReview }>(page, token, `/api/v1/coach/get_weekly_review/${week}`))
        .data;
      expect(stored7.patterns.find((p) => p.pattern === 'revenge_trading')?.count).toBe(1);
      await expect(report.getByRole('region', { name: 'Focus for next week' })).toContainText(stored7.focus.text);
      await expect(report.getByText(`Written by: built-in analysis`).first()).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/coach-week-${viewport.name}.png` });
      await fitsWidth(page);
      await page.screenshot({ path: `${SHOTS}/coach-week-full-${viewport.name}.png`, fullPage: true });

      // Opening it marked it read; the list has it.
      await expect
        .poll(
          async () =>
            (
              await apiAs<{ data: { weeks: WeeklyReviewListItem[]; unread: number } }>(
                page,
                token,
                '/api/v1/coach/get_weekly_reviews',
              )
            ).data,
        )
        .toMatchObject({ unread: 0, weeks: [{ week, trades: 5 }] });

      // The email, in two parts, from the loopback SMTP server.
      await expect
        .poll(async () => (await mailsTo(facts, user.email)).filter((m) => m.subject.startsWith('Your weekly')).length)
        .toBe(1);
      const mail = (await mailsTo(facts, user.email)).find((m) => m.subject === `Your weekly review: ${week}`)!;
      const text = mail.parts.find((p) => p.type === 'text/plain')!.body;
      const html = mail.parts.find((p) => p.type === 'text/html')!.body;
      expect(text).toContain(`You closed 5 trades for ${money(net)}`);
      expect(text).toContain(stored7.focus.text);
      expect(html).toContain(money(net));
      await page.setContent(html);
      await expect(page.getByText(`You closed 5 trades for ${money(net)}`).first()).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/coach-email-${viewport.name}.png`, fullPage: true });
    });
  });
}
