import { expect, test, type Page } from '@playwright/test';
import type { CashFlowsResponse, DashboardMetricsResponse, ReturnsResponse, TradeItem } from '@pipsense/contract';
import { syncOanda } from '../apps/server/src/test/oanda-user';
import { simControl } from './stack/stack-client';
import { readStackFacts } from './stack/stack-facts';
import {
  allTradesByApi,
  apiAs,
  canvasPainted,
  homeMoney,
  pageApi,
  SHOTS,
  signedMoney,
  syncedOandaUser,
  tenThousandths,
  toast,
  VIEWPORTS,
} from './support';

/*
 * Money over time end to end, at 1280×800 and 390×844: a deposit made at the broker appears on the account's money
 * page after a sync, with the balance chart and the time-weighted returns; a home currency chosen on the Profile
 * converts the Overview's money of the two-currency practice book. Expected values come from the simulator (the
 * deposit, the broker's balance and its daily closes) and the API, never from the screen under test.
 */

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/money-${name}.png`, fullPage: true });
}

for (const viewport of VIEWPORTS) {
  test.describe(`money over time at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('a deposit, the balance chart, the returns, a home currency and the Overview converted', async ({
      page,
      baseURL,
    }) => {
      const facts = readStackFacts(baseURL);
      const sim = simControl(facts, 'practice');
      const { token } = await syncedOandaUser(page, facts, { prefix: `mo${viewport.name[0]}`, aiPlatform: 'gemini' });
      const account = facts.practice.accounts[0]!;

      // A deposit at the broker, then a sync: the transaction store reads it with the rest.
      const comment = `Top-up ${viewport.name} ${Date.now()}`;
      const broker = await sim.transferFunds(account.id, '2500.00', comment);
      await syncOanda(pageApi(page, token));
      const flows = (
        await apiAs<CashFlowsResponse>(page, token, `/api/v1/money/get_cash_flows?accountId=${account.id}`)
      ).data;
      expect(flows.filter((f) => f.comment === comment)).toEqual([
        expect.objectContaining({
          type: 'deposit',
          amount: expect.stringMatching(/^2500(\.0+)?$/),
          currency: account.currency,
        }),
      ]);

      await test.step('the Accounts row leads to the money page', async () => {
        await page.goto('/accounts/my_accounts');
        const row = page.getByRole('row').filter({ hasText: account.id });
        await row.getByRole('link', { name: 'Money' }).click();
        await expect(page).toHaveURL(new RegExp(`/accounts/${encodeURIComponent(account.id)}/money$`));
        await expect(
          page.getByRole('heading', { name: new RegExp(`${account.id}.*${account.currency}`) }),
        ).toBeVisible();
      });

      await test.step('the deposit is listed, and the totals add the deposits exactly', async () => {
        const section = page.getByRole('region', { name: 'Deposits and withdrawals' });
        const row = section.getByRole('row').filter({ hasText: comment });
        await expect(row).toContainText('Deposit');
        await expect(row).toContainText(`+2,500.00 ${account.currency}`);
        const deposits = flows
          .filter((f) => f.type === 'deposit')
          .reduce((sum, f) => sum + tenThousandths(f.amount), 0n);
        await expect(section).toContainText(`${signedMoney(deposits)} ${account.currency}`);
      });

      await test.step("the balance chart ends at the broker's balance", async () => {
        const chart = page.getByRole('region', { name: 'Balance and equity' });
        await expect(chart).toBeVisible();
        // The balance after every booking, trades' P/L, financing, transfers and the partial closes of trades still
        // open (each booked at its own fill, docs/money.md), is the broker's to the cent.
        await expect(chart).toContainText(`${signedMoney(tenThousandths(broker.balance), false)} ${account.currency}`);
        await expect.poll(() => canvasPainted(chart), { message: 'the balance chart drew' }).toBe(true);
      });

      await test.step('the returns are the API’s time-weighted returns', async () => {
        const returns = (
          await apiAs<ReturnsResponse>(page, token, `/api/v1/money/get_returns?accountId=${account.id}&period=month`)
        ).data;
        const section = page.getByRole('region', { name: 'Returns' });
        await expect(section).toContainText(`${signedMoney(tenThousandths(returns.total))} %`);
        await expect(section.getByRole('table', { name: 'Returns by month' }).getByRole('row')).toHaveCount(
          returns.periods.length + 1,
        );
        await section.getByRole('button', { name: 'Year' }).click();
        await expect(section.getByRole('table', { name: 'Returns by year' })).toBeVisible();
        await shot(page, `account-${viewport.name}`);
      });

      await test.step('a home currency chosen on the Profile converts the Overview', async () => {
        const before = await homeMoney(page, token, facts);
        const other = [...new Set(facts.practice.accounts.map((a) => a.currency))].find((c) => c !== before.home)!;
        await page.goto('/settings/profile');
        await page.getByLabel('Home currency').selectOption(other);
        await page
          .locator('form')
          .filter({ has: page.getByLabel('Home currency') })
          .getByRole('button', { name: 'Save Changes' })
          .click();
        await expect(toast(page, `Home currency set to ${other}.`)).toBeVisible();

        const money = await homeMoney(page, token, facts);
        expect(money.home).toBe(other);
        const trades: TradeItem[] = await allTradesByApi(page, token);
        const net = trades
          .filter((t) => t.state === 'CLOSED')
          .reduce((sum, t) => sum + tenThousandths(money.toHome(t, t.realizedPL)), 0n);
        await page.goto('/overview');
        const figures = page.getByRole('region', { name: `Money in ${other}` });
        await expect(figures).toBeVisible();
        const equity = page.getByRole('region', { name: 'Equity Curve' });
        await expect(equity.getByRole('definition').first()).toHaveText(signedMoney(net));
        // The return beside the money: one per currency, never converted.
        const metrics = (await apiAs<DashboardMetricsResponse>(page, token, '/api/v1/dashboard/metrics')).data;
        const group = figures.getByRole('group', { name: 'Return (time-weighted)' });
        for (const r of metrics.returns ?? [])
          await expect(group).toContainText(`${signedMoney(tenThousandths(r.total))} % ${r.currency}`);
        await shot(page, `overview-${viewport.name}`);
      });
    });
  });
}
