import { expect, test, type Locator, type Page } from '@playwright/test';
import type { AccountListResponse, TradeItem, TradeListResponse } from '@pipsense/contract';
import { simControl } from './stack/stack-client';
import { readStackFacts, type StackFacts } from './stack/stack-facts';
import { apiAs, newUser, registerByApi, sessionToken, signInByApi, signedIn, syncedOandaUser, toast } from './support';

/*
 * The trading half end to end: the built app in Chromium against the OANDA simulators of e2e/stack (two practice
 * accounts of 150 trades, one live account of 60). Expected values come from the simulator (what OANDA says) and
 * are rounded here by a separate implementation, so a screen that loses or mangles digits fails.
 */

/** Rounds an exact decimal string half away from zero to `places`, on its digits (no floats); null → '-'. */
function fixed(value: string | null | undefined, places: number): string {
  if (value === null || value === undefined) return '-';
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(value);
  if (!m) throw new Error(`not a decimal: ${value}`);
  const scaled = BigInt(m[2]! + (m[3] ?? '').padEnd(places + 1, '0').slice(0, places + 1));
  const rounded = scaled / 10n + (scaled % 10n >= 5n ? 1n : 0n);
  const digits = rounded.toString().padStart(places + 1, '0');
  const text = places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
  return m[1] === '-' && rounded !== 0n ? `-${text}` : text;
}

/** A decimal string as an integer count of 10^-places units, for exact sums. */
function units(value: string, places: number): bigint {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(value)!;
  const n = BigInt(m[2]! + (m[3] ?? '').padEnd(places, '0'));
  return m[1] === '-' ? -n : n;
}

const STATE_LABEL: Record<string, string> = { OPEN: 'Open', CLOSED: 'Closed' };
const count = (n: number) => n.toLocaleString('en-US');
const TRADES_PAGE = '/trades/all_trades';
const ACCOUNTS_PAGE = '/accounts/my_accounts';
const REJECTED = 'OANDA rejected the access token for demo mode. Check it in Settings → Trading Platforms.';
const NOT_CONFIGURED = 'Connect your OANDA account in Settings → Trading Platforms first.';

/**
 * The cells a Trades row must show for a trade as the server stored it (docs/PRODUCT.md, Trade list, decimals
 * included).
 */
function tradeCells(t: TradeItem): string[] {
  return [
    t.tradeId,
    t.instrument.replace('_', '/'),
    fixed(t.price, 5),
    t.initialUnits,
    t.currentUnits,
    fixed(t.realizedPL, 4),
    fixed(t.unrealizedPL, 4),
    STATE_LABEL[t.state] ?? t.state,
    'View Trade',
  ];
}

function bodyRows(table: Locator): Locator {
  return table.getByRole('rowgroup').last().getByRole('row');
}

/** The value next to a label in a details modal. */
function detail(dialog: Locator, label: string): Locator {
  return dialog
    .locator('.detail-item')
    .filter({ has: dialog.page().getByRole('term').getByText(label, { exact: true }) })
    .getByRole('definition');
}

/** A local date-time the way the app writes it (the browser's locale and time zone). */
function localDateTime(page: Page, iso: string): Promise<string> {
  return page.evaluate(
    (v) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(Date.parse(v)),
    iso,
  );
}

/** The Added cell: the local date over the local time, with no space between them in the text. */
function localAdded(page: Page, iso: string): Promise<string> {
  return page.evaluate((v) => {
    const t = Date.parse(v);
    return (
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(t) +
      new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(t)
    );
  }, iso);
}

/** Whether any canvas inside holds a painted pixel: the chart drew, not just mounted. */
function painted(chart: Locator): Promise<boolean> {
  return chart.evaluate((el) =>
    [...el.querySelectorAll('canvas')].some((canvas) => {
      if (!canvas.width || !canvas.height) return false;
      const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
      if (!data) return false;
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
      return false;
    }),
  );
}

async function tradePage(page: Page, token: string, n: number): Promise<TradeListResponse> {
  return apiAs<TradeListResponse>(page, token, `/api/v1/trade/get_trade_history?page=${n}&limit=10`);
}

/** A user with OANDA (demo, every account) saved and synced through the API, signed in in `page`. */
const syncedUser = (page: Page, facts: StackFacts, prefix: string) =>
  syncedOandaUser(page, facts, { prefix, aiPlatform: 'openai' });

/** Opens the OANDA card in Settings → Trading Platforms and saves these values through the modal. */
async function saveOandaInSettings(page: Page, values: { token: string; accountId?: string; mode: 'demo' | 'live' }) {
  await page.goto('/settings/trading_platforms');
  await page.getByRole('button', { name: /^OANDA, (Active|Inactive)/ }).click();
  const modal = page.getByRole('dialog', { name: 'OANDA Configuration' });
  await modal.getByLabel('Access Token').fill(values.token);
  await modal.getByLabel('Account ID').fill(values.accountId ?? '');
  await modal.getByLabel('Mode').selectOption(values.mode);
  await modal.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(toast(page, 'Configuration updated successfully')).toBeVisible();
  await expect(modal).toBeHidden();
}

/** How many trades the simulator holds on these accounts now, open and closed. */
async function bookSize(sim: ReturnType<typeof simControl>, accounts: ReadonlyArray<{ id: string }>) {
  let n = 0;
  for (const account of accounts) n += (await sim.trades(account.id)).length;
  return n;
}

test('a trader connects OANDA in Settings, syncs, and reads accounts and trades', async ({ page, baseURL }) => {
  const facts = readStackFacts(baseURL);
  const sim = simControl(facts, 'practice');
  // The simulator's book as it is now: other specs on the same stack may have opened trades on it.
  const totalTrades = await bookSize(sim, facts.practice.accounts);
  const lastPage = Math.ceil(totalTrades / 10);
  await signedIn(page, 'trd');
  const token = await sessionToken(page);

  await test.step('configure OANDA: the simulator demo token, no account id, Demo', async () => {
    await page.getByText('Settings', { exact: true }).click();
    await page.getByRole('link', { name: 'Trading Platforms', exact: true }).click();
    await expect(page).toHaveURL(/\/settings\/trading_platforms$/);
    await page.getByRole('button', { name: /^OANDA, Inactive/ }).click();
    const modal = page.getByRole('dialog', { name: 'OANDA Configuration' });
    await modal.getByLabel('Access Token').fill(sim.token);
    await expect(modal.getByLabel('Account ID')).toHaveValue('');
    await modal.getByLabel('Mode').selectOption('demo');
    await modal.getByRole('button', { name: 'Save Configuration' }).click();
    await expect(toast(page, 'Configuration updated successfully')).toBeVisible();
    await expect(modal).toBeHidden();
    const card = page.getByRole('button', { name: /^OANDA, Active/ });
    await expect(card).toContainText("Configured · Demo · all the token's accounts");
  });

  await test.step('Accounts: sync, then the rows carry OANDA summaries with the spec decimals', async () => {
    await page.goto(ACCOUNTS_PAGE);
    await expect(page.getByRole('heading', { name: 'OANDA Accounts' })).toBeVisible();
    await expect(page.getByText('No accounts found')).toBeVisible();
    await page.getByRole('button', { name: 'Sync accounts' }).click();
    const n = facts.practice.accounts.length;
    await expect(toast(page, `Synced ${n} accounts: ${n} new, 0 updated`)).toBeVisible();
    const table = page.getByRole('table', { name: 'Accounts' });
    await expect(bodyRows(table)).toHaveCount(n);

    const stored = await apiAs<AccountListResponse>(page, token, '/api/v1/account/get_accounts?page=1&limit=10');
    for (const account of facts.practice.accounts) {
      const summary = await sim.summary(account.id);
      const item = stored.data.find((a) => a.oandaAccountId === account.id);
      expect(item, `account ${account.id} stored`).toBeDefined();
      // Stored exactly as OANDA sent it; NAV = balance + unrealized P/L to the last digit.
      expect(item!.balance).toBe(summary.balance);
      expect(item!.lastTransactionID).toBe(summary.lastTransactionID);
      expect(units(item!.NAV!, 4) - units(item!.balance!, 4)).toBe(units(item!.unrealizedPL!, 4));
      const row = bodyRows(table).filter({ hasText: account.id });
      await expect(row.getByRole('cell')).toHaveText([
        account.alias,
        account.id,
        account.currency,
        fixed(summary.balance, 2),
        fixed(item!.NAV, 2),
        fixed(item!.unrealizedPL, 4),
        count(summary.openTradeCount),
        count(summary.openPositionCount),
        await localAdded(page, item!.createdAt),
        // The Actions cell: the spec's 'View Account' button, and the link to the account's money page under it.
        'View AccountMoney',
      ]);
      await expect(row.getByRole('link', { name: 'Money' })).toHaveAttribute(
        'href',
        `/accounts/${encodeURIComponent(account.id)}/money`,
      );
    }
    await expect(page.getByText(`Showing 1–${n} of ${n} accounts`)).toBeVisible();
    const pages = page.getByRole('navigation', { name: 'Accounts pages' });
    await expect(pages.getByLabel('Previous page')).toHaveAttribute('aria-disabled', 'true');
    await expect(pages.getByLabel('Next page')).toHaveAttribute('aria-disabled', 'true');

    // Account Details: every field but the internal id, user id and version.
    const first = facts.practice.accounts[0]!;
    const item = stored.data.find((a) => a.oandaAccountId === first.id)!;
    await bodyRows(table).filter({ hasText: first.id }).getByRole('button', { name: 'View Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Account Details' });
    await expect(dialog).toBeVisible();
    const shownFields = Object.keys(item).filter((k) => !['id', 'userId', 'version'].includes(k));
    await expect(dialog.getByRole('term')).toHaveCount(shownFields.length);
    await expect(detail(dialog, 'Alias')).toHaveText(first.alias);
    await expect(detail(dialog, 'Account ID')).toHaveText(first.id);
    await expect(detail(dialog, 'Mode')).toHaveText('Demo');
    await expect(detail(dialog, 'Balance')).toHaveText(fixed(item.balance, 2));
    await expect(detail(dialog, 'Margin Used')).toHaveText(fixed(item.marginUsed, 2));
    await expect(detail(dialog, 'Last Transaction ID')).toHaveText(item.lastTransactionID!);
    await expect(detail(dialog, 'Added')).toHaveText(await localDateTime(page, item.createdAt));
    const text = (await dialog.textContent()) ?? '';
    expect(text).not.toContain(item.id);
    expect(text).not.toContain(item.userId);
    await expect(dialog.getByRole('term').filter({ hasText: /version|user/i })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect(dialog).toBeHidden();
  });

  const table = page.getByRole('table', { name: 'Trades' });
  const pagination = page.getByRole('navigation', { name: 'Trades pages' });

  await test.step('Trades: sync, ten rows newest first with 5-decimal prices and 4-decimal P/L', async () => {
    await page.goto(TRADES_PAGE);
    await expect(page.getByRole('heading', { name: 'OANDA Trades' })).toBeVisible();
    await expect(page.getByText('No trades found')).toBeVisible();
    await page.getByRole('button', { name: 'Sync trades' }).click();
    await expect(
      toast(
        page,
        `Synced ${count(totalTrades)} trades from ${facts.practice.accounts.length} accounts: ${count(totalTrades)} new, 0 updated`,
      ),
    ).toBeVisible();
    await expect(bodyRows(table)).toHaveCount(10);
    await expect(table.getByRole('columnheader')).toHaveText([
      'Trade ID',
      'Instrument',
      'Price',
      'Initial Units',
      'Current Units',
      'Realized P/L',
      'Unrealized P/L',
      'State',
      'Actions',
    ]);

    const first = await tradePage(page, token, 1);
    expect(first.total).toBe(totalTrades);
    expect(first.pages).toBe(lastPage);
    // What the server stored is what OANDA sent, digit for digit.
    const simTrades = new Map<string, Awaited<ReturnType<typeof sim.trades>>>();
    for (const account of facts.practice.accounts) simTrades.set(account.id, await sim.trades(account.id));
    for (const t of first.data) {
      const wire = simTrades.get(t.accountId)!.find((w) => w.id === t.tradeId);
      expect(wire, `trade ${t.accountId}/${t.tradeId} exists at OANDA`).toBeDefined();
      expect([t.instrument, t.price, t.initialUnits, t.currentUnits, t.realizedPL, t.state]).toEqual([
        wire!.instrument,
        wire!.price,
        wire!.initialUnits,
        wire!.currentUnits,
        wire!.realizedPL,
        wire!.state,
      ]);
    }
    const openTimes = first.data.map((t) => Date.parse(t.openTime));
    expect(openTimes).toEqual([...openTimes].sort((a, b) => b - a));
    for (const [i, t] of first.data.entries())
      await expect(bodyRows(table).nth(i).getByRole('cell')).toHaveText(tradeCells(t));

    // The newest trades are still open: their unrealized P/L shows with four decimals, closed ones show '-'.
    const open = first.data.filter((t) => t.state === 'OPEN');
    expect(open.length).toBeGreaterThan(0);
    for (const [i, t] of first.data.entries()) {
      const cell = bodyRows(table).nth(i).getByRole('cell').nth(6);
      await expect(cell).toHaveText(t.state === 'OPEN' ? /^-?\d+\.\d{4}$/ : '-');
      await expect(bodyRows(table).nth(i).getByRole('cell').nth(2)).toHaveText(/^\d+\.\d{5}$/);
    }
  });

  await test.step('pagination: Prev off on page 1, page 2, then Next off on the last page', async () => {
    await expect(pagination.getByLabel('Previous page')).toHaveAttribute('aria-disabled', 'true');
    await expect(pagination.getByLabel('Next page')).not.toHaveAttribute('aria-disabled');
    await expect(page.getByText(`Showing 1–10 of ${count(totalTrades)} trades`)).toBeVisible();

    await pagination.getByRole('link', { name: 'Page 2' }).click();
    await expect(page.getByText(`Showing 11–20 of ${count(totalTrades)} trades`)).toBeVisible();
    const second = await tradePage(page, token, 2);
    await expect(bodyRows(table)).toHaveCount(10);
    await expect(bodyRows(table).first().getByRole('cell')).toHaveText(tradeCells(second.data[0]!));
    await expect(pagination.getByLabel('Previous page')).not.toHaveAttribute('aria-disabled');

    await pagination.getByRole('link', { name: `Page ${lastPage}` }).click();
    const last = await tradePage(page, token, lastPage);
    const from = (lastPage - 1) * 10 + 1;
    await expect(
      page.getByText(`Showing ${count(from)}–${count(totalTrades)} of ${count(totalTrades)} trades`),
    ).toBeVisible();
    await expect(bodyRows(table)).toHaveCount(last.data.length);
    await expect(bodyRows(table).last().getByRole('cell')).toHaveText(tradeCells(last.data.at(-1)!));
    await expect(pagination.getByLabel('Next page')).toHaveAttribute('aria-disabled', 'true');
    await expect(pagination.locator('[aria-current="page"]')).toHaveText(String(lastPage));
  });

  await test.step('Trade Details: the fields, the three local date-times and a drawn candle chart', async () => {
    await pagination.getByRole('link', { name: 'Page 1' }).click();
    await expect(page.getByText(`Showing 1–10 of ${count(totalTrades)} trades`)).toBeVisible();
    const trade = (await tradePage(page, token, 1)).data[0]!;
    await bodyRows(table).first().getByRole('button', { name: 'View Trade' }).click();
    const dialog = page.getByRole('dialog', { name: 'Trade Details' });
    await expect(dialog).toBeVisible();
    await expect(detail(dialog, 'Trade ID')).toHaveText(trade.tradeId);
    await expect(detail(dialog, 'Price')).toHaveText(fixed(trade.price, 5));
    await expect(detail(dialog, 'Unrealized P/L')).toHaveText(fixed(trade.unrealizedPL, 4));
    await expect(detail(dialog, 'Stop Loss')).toHaveText(fixed(trade.stopLossPrice, 5));
    await expect(detail(dialog, 'Opened')).toHaveText(await localDateTime(page, trade.openTime));
    await expect(detail(dialog, 'Last Updated')).toHaveText(await localDateTime(page, trade.updatedAt));
    await expect(detail(dialog, 'Created At')).toHaveText(await localDateTime(page, trade.createdAt));

    const chart = dialog.getByRole('img', { name: /with the trade's entry, exit(, MAE and MFE)? marked/ });
    await expect(chart).toBeVisible();
    await expect(chart.locator('canvas').first()).toBeVisible();
    await expect.poll(() => painted(chart), { message: 'the chart paints its canvas' }).toBe(true);
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect(dialog).toBeHidden();
  });

  await test.step('platform switch: MetaTrader has nothing imported; back to OANDA starts on page 1', async () => {
    await pagination.getByRole('link', { name: 'Page 2' }).click();
    await expect(page.getByText(`Showing 11–20 of ${count(totalTrades)} trades`)).toBeVisible();
    await page.getByRole('button', { name: 'Trading platform: OANDA' }).click();
    await page.getByRole('button', { name: /^MetaTrader/ }).click();
    await expect(page.getByRole('heading', { name: 'MetaTrader Trades', exact: true })).toBeVisible();
    await expect(page.getByText('No MetaTrader trades yet')).toBeVisible();
    await expect(table).toBeHidden();
    // Imported platforms have nothing to sync: Import takes the Sync button's place.
    await expect(page.getByRole('button', { name: 'Sync trades' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Import' }).first()).toBeVisible();

    await page.getByRole('button', { name: 'Trading platform: MetaTrader' }).click();
    await page.getByRole('button', { name: /^OANDA/ }).click();
    await expect(page.getByRole('heading', { name: 'OANDA Trades' })).toBeVisible();
    await expect(page.getByText(`Showing 1–10 of ${count(totalTrades)} trades`)).toBeVisible();
    await expect(pagination.locator('[aria-current="page"]')).toHaveText('1');
    await expect(pagination.getByLabel('Previous page')).toHaveAttribute('aria-disabled', 'true');
    const first = await tradePage(page, token, 1);
    await expect(bodyRows(table).first().getByRole('cell')).toHaveText(tradeCells(first.data[0]!));
  });
});

test('OANDA failing or rejecting the token: the toast says why, the rows stay, the user stays signed in', async ({
  page,
  baseURL,
}) => {
  const facts = readStackFacts(baseURL);
  const practice = simControl(facts, 'practice');
  const { user, token } = await syncedUser(page, facts, 'rej');
  const table = page.getByRole('table', { name: 'Trades' });
  const practiceTrades = await bookSize(practice, facts.practice.accounts);

  await page.goto(TRADES_PAGE);
  await expect(bodyRows(table)).toHaveCount(10);

  await test.step('OANDA answering 503 to every retry', async () => {
    await practice.fault({ kind: 'fail', n: 20, status: 503, match: '/v3/accounts' });
    try {
      await page.getByRole('button', { name: 'Sync trades' }).click();
      await expect(page.getByRole('button', { name: 'Syncing trades' })).toBeDisabled();
      await expect(toast(page, /OANDA is not answering properly right now \(HTTP 503\)/)).toBeVisible();
    } finally {
      await practice.resetFaults();
    }
    await expect(page.getByRole('button', { name: 'Sync trades' })).toBeEnabled();
    await expect(bodyRows(table)).toHaveCount(10);
  });

  await test.step('a wrong token: OANDA rejects it, PipSense keeps the session', async () => {
    await saveOandaInSettings(page, { token: 'e2e-not-a-real-oanda-token-0000', mode: 'demo' });
    await page.goto(TRADES_PAGE);
    await expect(bodyRows(table)).toHaveCount(10);
    await page.getByRole('button', { name: 'Sync trades' }).click();
    await expect(toast(page, REJECTED)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${TRADES_PAGE}$`));
    expect(await sessionToken(page)).toBe(token);
    await expect(page.locator('.header-name')).toHaveText(user.username);
    await expect(bodyRows(table)).toHaveCount(10);

    await page.goto(ACCOUNTS_PAGE);
    await expect(bodyRows(page.getByRole('table', { name: 'Accounts' }))).toHaveCount(facts.practice.accounts.length);
    await page.getByRole('button', { name: 'Sync accounts' }).click();
    await expect(toast(page, REJECTED)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${ACCOUNTS_PAGE}$`));
  });

  await test.step('the live token in Live mode reads the live server', async () => {
    const live = facts.live.accounts[0]!;
    await saveOandaInSettings(page, { token: facts.live.token, mode: 'live' });
    await page.goto(ACCOUNTS_PAGE);
    await page.getByRole('button', { name: 'Sync accounts' }).click();
    await expect(toast(page, 'Synced 1 account: 1 new, 0 updated')).toBeVisible();
    const accounts = page.getByRole('table', { name: 'Accounts' });
    await expect(bodyRows(accounts)).toHaveCount(facts.practice.accounts.length + 1);
    await bodyRows(accounts).filter({ hasText: live.id }).getByRole('button', { name: 'View Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Account Details' });
    await expect(detail(dialog, 'Mode')).toHaveText('Live');
    await expect(detail(dialog, 'Balance')).toHaveText(
      fixed((await simControl(facts, 'live').summary(live.id)).balance, 2),
    );
    await dialog.getByRole('button', { name: 'Close' }).last().click();

    await page.goto(TRADES_PAGE);
    await page.getByRole('button', { name: 'Sync trades' }).click();
    await expect(
      toast(page, `Synced ${live.trades} trades from 1 account: ${live.trades} new, 0 updated`),
    ).toBeVisible();
    const all = practiceTrades + live.trades;
    await expect(page.getByText(`Showing 1–10 of ${count(all)} trades`)).toBeVisible();
  });
});

test('without an OANDA configuration the screens point to Settings', async ({ page }) => {
  const user = newUser('noo');
  await registerByApi(page, user);
  await signInByApi(page, user);

  await page.goto(TRADES_PAGE);
  await expect(page.getByRole('heading', { name: 'Connect OANDA first' })).toBeVisible();
  await expect(page.getByText('No trades found')).toBeHidden();
  await page.getByRole('button', { name: 'Sync trades' }).click();
  await expect(toast(page, NOT_CONFIGURED)).toBeVisible();

  await page.goto(ACCOUNTS_PAGE);
  await expect(page.getByRole('heading', { name: 'Connect OANDA first' })).toBeVisible();
  await expect(page.getByText('No accounts found')).toBeHidden();
  await page.getByRole('link', { name: 'Go to Settings → Trading Platforms' }).click();
  await expect(page).toHaveURL(/\/settings\/trading_platforms$/);
  await expect(page.getByRole('button', { name: /^OANDA, Inactive/ })).toContainText('Not configured yet');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the trades table scrolls inside its card and a trade opens full screen', async ({ page, baseURL }) => {
    const facts = readStackFacts(baseURL);
    await syncedUser(page, facts, 'mob');
    await page.goto(TRADES_PAGE);
    const table = page.getByRole('table', { name: 'Trades' });
    await expect(bodyRows(table)).toHaveCount(10);

    // The page itself does not scroll sideways; the table's own wrapper does.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const wrapper = table.locator('xpath=..');
    const overflow = await wrapper.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeGreaterThan(0);
    const view = bodyRows(table).first().getByRole('button', { name: 'View Trade' });
    await expect(view).not.toBeInViewport();
    await wrapper.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await expect(view).toBeInViewport();

    await view.click();
    const dialog = page.getByRole('dialog', { name: 'Trade Details' });
    await expect(dialog).toBeVisible();
    const box = await dialog.boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(380);
    await expect(
      dialog.getByRole('img', { name: /with the trade's entry, exit(, MAE and MFE)? marked/ }),
    ).toBeVisible();
    await expect(detail(dialog, 'Opened')).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect(dialog).toBeHidden();
  });
});
