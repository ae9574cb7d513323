import { expect, test, type Locator, type Page } from '@playwright/test';
import type {
  BulkTagResponse,
  TagItem,
  TagsResponse,
  TradeItem,
  TradeListResponse,
  TradeNoteResponse,
} from '@pipsense/contract';
import { readStackFacts } from './stack/stack-facts';
import { apiAs, syncedOandaUser, toast } from './support';

/*
 * The trading journal end to end (issue 9, "Done means"): each journey at 1280×800 and at 390×844, in the built app
 * against the OANDA simulator of e2e/stack. Expected values are worked out here from the trades API (the simulator's
 * book as synced), never read off the screen under test.
 */

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const TRADES_PAGE = '/trades/all_trades';
const CHAT_PAGE = '/chat/ai_chat';

// ——— exact decimals ———

/** A decimal string in 1/10,000 units (OANDA's precision), for exact sums and comparisons. */
function units(value: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(value);
  if (!m) throw new Error(`not a decimal: ${value}`);
  const n = BigInt(m[2]! + (m[3] ?? '').padEnd(4, '0').slice(0, 4));
  return m[1] === '-' ? -n : n;
}

/** 1/10,000 units as money with two decimals, half away from zero, grouped, with a sign: '+1,234.56', '-0.50'. */
function signedMoney(tenThousandths: bigint, plus = true): string {
  const negative = tenThousandths < 0n;
  const abs = negative ? -tenThousandths : tenThousandths;
  const cents = abs / 100n + (abs % 100n >= 50n ? 1n : 0n);
  const text = `${(cents / 100n).toLocaleString('en-US')}.${(cents % 100n).toString().padStart(2, '0')}`;
  if (cents === 0n) return '0.00';
  return negative ? `-${text}` : plus ? `+${text}` : text;
}

/** A rate as the overview writes it: one decimal, half up, on integers. */
function rate(part: number, whole: number): string {
  const tenths = Math.floor((part * 1000 * 2 + whole) / (whole * 2));
  return `${Math.floor(tenths / 10)}.${tenths % 10}%`;
}

const netOf = (trades: readonly TradeItem[]) => trades.reduce((sum, t) => sum + units(t.realizedPL), 0n);
const closedOf = (trades: readonly TradeItem[]) => trades.filter((t) => t.state === 'CLOSED');

// ——— the API as the signed-in trader ———

interface Journal {
  token: string;
  trades: TradeItem[];
  tags: TagItem[];
  timeZone: string;
}

async function allTrades(page: Page, token: string): Promise<TradeItem[]> {
  const trades: TradeItem[] = [];
  for (let n = 1; ; n++) {
    const body = await apiAs<TradeListResponse>(page, token, `/api/v1/trade/get_trade_history?page=${n}&limit=100`);
    trades.push(...body.data);
    if (n >= body.pages) return trades;
  }
}

/**
 * A fresh trader with the practice simulator connected and synced, signed in, with the starter tags; Gemini as the AI
 * platform, so the built-in analyst answers (no model server is involved).
 */
async function journalUser(page: Page, baseURL: string | undefined, prefix: string): Promise<Journal> {
  const facts = readStackFacts(baseURL);
  const { token } = await syncedOandaUser(page, facts, { prefix, aiPlatform: 'gemini' });
  const trades = await allTrades(page, token);
  expect(trades.length).toBe(facts.practice.accounts.reduce((n, a) => n + a.trades, 0));
  const tags = (await apiAs<TagsResponse>(page, token, '/api/v1/journal/get_tags')).data;
  const timeZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  return { token, trades, tags, timeZone };
}

function tagNamed(journal: Journal, name: string): TagItem {
  const tag = journal.tags.find((t) => t.name === name);
  expect(tag, `starter tag ${name}`).toBeDefined();
  return tag!;
}

async function bulkTag(page: Page, journal: Journal, trades: readonly TradeItem[], tag: TagItem) {
  const body = { trades: trades.map((t) => ({ accountId: t.accountId, tradeId: t.tradeId })), tagIds: [tag.id] };
  const res = await apiAs<BulkTagResponse>(page, journal.token, '/api/v1/journal/bulk_tag', body);
  expect(res.data.trades).toBe(trades.length);
}

/** Closed trades with distinct realized P/L (so a sort by P/L has one right order), oldest opened first. */
function distinctClosed(trades: readonly TradeItem[]): TradeItem[] {
  const seen = new Set<bigint>();
  return closedOf(trades)
    .filter((t) => {
      const pl = units(t.realizedPL);
      if (pl === 0n || seen.has(pl)) return false;
      seen.add(pl);
      return true;
    })
    .sort((a, b) => Date.parse(a.openTime) - Date.parse(b.openTime));
}

// ——— the screens ———

const tradesTable = (page: Page) => page.getByRole('table', { name: 'Trades' });
const bodyRows = (table: Locator) => table.getByRole('rowgroup').last().getByRole('row');
/** The Trade ID cell of each body row (the second cell: the first is the selection checkbox). */
const tradeIdCells = (page: Page) => bodyRows(tradesTable(page)).locator('td:nth-child(2)');

async function openTrades(page: Page, query = '') {
  await page.goto(`${TRADES_PAGE}${query}`);
  await expect(bodyRows(tradesTable(page))).toHaveCount(10);
  await expect(tradesTable(page)).toHaveAttribute('aria-busy', 'false');
}

/** Picks an existing tag in a tag picker: type part of its name, then its suggestion. */
async function pickTag(scope: Locator, label: string, tag: TagItem) {
  const kind = { setup: 'Setup', mistake: 'Mistake', emotion: 'Emotion' }[tag.kind];
  await scope.getByLabel(label, { exact: true }).fill(tag.name.slice(0, 4));
  await scope.getByRole('button', { name: `Add tag ${tag.name} (${kind})`, exact: true }).click();
}

for (const viewport of VIEWPORTS) {
  test.describe(`journal at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('open a trade, write a note, rate and tag it', async ({ page, baseURL }) => {
      const journal = await journalUser(page, baseURL, `jn${viewport.name[0]}`);
      const breakout = tagNamed(journal, 'Breakout');
      const note = 'Waited for the **retest**, entry <b>late</b>.\n\nNext time: limit order at the level.';
      await openTrades(page);
      const tradeId = (await tradeIdCells(page).first().textContent())!.trim();
      const trade = journal.trades.find((t) => t.tradeId === tradeId)!;

      await bodyRows(tradesTable(page)).first().getByRole('button', { name: 'View Trade' }).click();
      const modal = page.getByRole('dialog', { name: 'Trade Details' });
      const form = modal.getByRole('region', { name: 'Journal' });
      await expect(form.getByRole('status')).toHaveText('Nothing written yet');
      await form.getByLabel('Note', { exact: true }).fill(note);
      // The stars are the labels of visually hidden radios: a trader clicks the fourth star.
      const stars = form.getByRole('radiogroup', { name: 'Trade rating' });
      await stars
        .locator('label')
        .filter({ has: page.getByRole('radio', { name: '4 of 5' }) })
        .click();
      await expect(stars.getByRole('radio', { name: '4 of 5' })).toBeChecked();
      await pickTag(form, 'Trade tags', breakout);
      // A new tag, created inline as a mistake.
      await form.getByLabel('Trade tags', { exact: true }).fill('Late entry');
      await form.getByLabel('Kind of new tag').selectOption('mistake');
      await form.getByRole('button', { name: 'Create “Late entry”' }).click();
      await expect(form.getByLabel('Trade tags chosen')).toContainText('Breakout');
      await expect(form.getByLabel('Trade tags chosen')).toContainText('Late entry');
      await expect(form.getByRole('status')).toHaveText('Unsaved changes');

      // The preview shows the markdown source as text: the <b> is not markup.
      await form.getByRole('button', { name: 'Preview' }).click();
      const preview = form.getByLabel('Note preview');
      await expect(preview).toContainText('entry <b>late</b>.');
      await expect(preview.locator('b')).toHaveCount(0);
      await expect(preview.getByRole('paragraph')).toHaveCount(2);
      await form.getByRole('button', { name: 'Write' }).click();

      await form.getByRole('button', { name: 'Save journal' }).click();
      await expect(toast(page, `Journal saved for trade #${tradeId}.`)).toBeVisible();
      await expect(form.getByRole('status')).toHaveText(/^Saved /);

      // What the server kept.
      const saved = await apiAs<TradeNoteResponse>(
        page,
        journal.token,
        `/api/v1/journal/get_trade_note/${trade.accountId}/${tradeId}`,
      );
      expect(saved.data).toMatchObject({ note, rating: 4 });
      expect(saved.data.tags.map((t) => `${t.kind}:${t.name}`).sort()).toEqual([
        'mistake:Late entry',
        'setup:Breakout',
      ]);

      // The row shows it once the modal is closed, and it is all there after a reload.
      await modal.getByRole('button', { name: 'Close', exact: true }).last().click();
      await expect(modal).toBeHidden();
      const row = bodyRows(tradesTable(page)).filter({ has: page.getByRole('cell', { name: tradeId, exact: true }) });
      await page.reload();
      await row.getByRole('button', { name: 'View Trade' }).click();
      await expect(form.getByLabel('Note', { exact: true })).toHaveValue(note);
      await expect(form.getByRole('radio', { name: '4 of 5' })).toBeChecked();
      await expect(form.getByLabel('Trade tags chosen')).toContainText('Late entry');
    });

    test('tag ten trades at once', async ({ page, baseURL }) => {
      const journal = await journalUser(page, baseURL, `jb${viewport.name[0]}`);
      const fomo = tagNamed(journal, 'FOMO');
      await openTrades(page);
      const ids = (await tradeIdCells(page).allTextContents()).map((t) => t.trim());
      expect(ids).toHaveLength(10);

      await tradesTable(page).getByRole('checkbox', { name: 'Select all trades on this page' }).check();
      const bar = page.getByRole('region', { name: 'Tag selected trades' });
      await expect(bar.getByRole('status')).toHaveText('10 trades selected');
      await pickTag(bar, 'Tags for the selected trades', fomo);
      await bar.getByRole('button', { name: 'Tag selected' }).click();
      await expect(toast(page, 'Tagged 10 trades with 1 tag (10 new tags added).')).toBeVisible();
      await expect(bar).toBeHidden();

      // Each of the ten now carries the tag.
      for (const id of ids) {
        const trade = journal.trades.find((t) => t.tradeId === id)!;
        const saved = await apiAs<TradeNoteResponse>(
          page,
          journal.token,
          `/api/v1/journal/get_trade_note/${trade.accountId}/${id}`,
        );
        expect(
          saved.data.tags.map((t) => t.name),
          `trade ${id}`,
        ).toEqual(['FOMO']);
      }
    });

    test('slice the overview by a setup tag', async ({ page, baseURL }) => {
      const journal = await journalUser(page, baseURL, `jo${viewport.name[0]}`);
      const breakout = tagNamed(journal, 'Breakout');
      const range = tagNamed(journal, 'Range');
      const closed = distinctClosed(journal.trades);
      const open = journal.trades.filter((t) => t.state === 'OPEN');
      // Breakout: twelve closed trades and one open one; Range: seven others.
      const breakoutTrades = [...closed.filter((_, i) => i % 10 === 0).slice(0, 12), ...open.slice(0, 1)];
      const rangeTrades = closed.filter((_, i) => i % 10 === 5).slice(0, 7);
      await bulkTag(page, journal, breakoutTrades, breakout);
      await bulkTag(page, journal, rangeTrades, range);
      const breakoutClosed = closedOf(breakoutTrades);

      await page.goto('/overview');
      const byTag = page.getByRole('region', { name: 'By Tag' });
      const table = byTag.getByRole('table', { name: 'Results by tag' });
      const breakoutRow = table.getByRole('row').filter({ has: page.getByRole('button', { name: 'Breakout' }) });
      await expect(breakoutRow.getByRole('cell').first()).toHaveText(String(breakoutClosed.length));
      await expect(breakoutRow.getByRole('cell').nth(2)).toHaveText(signedMoney(netOf(breakoutClosed)));
      const rangeRow = table.getByRole('row').filter({ has: page.getByRole('button', { name: 'Range' }) });
      await expect(rangeRow.getByRole('cell').first()).toHaveText(String(rangeTrades.length));

      // The tag's name slices the whole overview by it.
      await breakoutRow.getByRole('button', { name: 'Breakout' }).click();
      await expect(page).toHaveURL(new RegExp(`tag=${breakout.id}`));
      const filters = page.getByRole('search', { name: 'Overview filters' });
      await expect(filters.getByRole('button', { name: 'Remove the tag filter Breakout' })).toBeVisible();
      const cardValue = (title: string) =>
        page.getByRole('region', { name: title, exact: true }).locator('.metric-card-value');
      await expect(cardValue('Total Trades')).toHaveText(String(breakoutTrades.length));
      const wins = breakoutClosed.filter((t) => units(t.realizedPL) > 0n).length;
      const losses = breakoutClosed.filter((t) => units(t.realizedPL) < 0n).length;
      await expect(cardValue('Win / Loss Ratio')).toHaveText(
        `${rate(wins, breakoutClosed.length)} / ${rate(losses, breakoutClosed.length)}`,
      );
      await expect(table.getByRole('button', { name: 'Range' })).toHaveCount(0);

      // Adding Range from the tag filter: trades with either tag.
      await filters.getByLabel('Add a tag filter').selectOption({ label: 'Range' });
      await expect(filters.getByRole('button', { name: 'Remove the tag filter Range' })).toBeVisible();
      await expect(cardValue('Total Trades')).toHaveText(String(breakoutTrades.length + rangeTrades.length));
      await filters.getByRole('button', { name: 'Clear filters' }).click();
      await expect(cardValue('Total Trades')).toHaveText(journal.trades.length.toLocaleString('en-US'));
    });

    test('ask the chat which setup loses the most', async ({ page, baseURL }) => {
      const journal = await journalUser(page, baseURL, `jq${viewport.name[0]}`);
      const closed = distinctClosed(journal.trades);
      const losers = closed.filter((t) => units(t.realizedPL) < 0n);
      const winners = closed.filter((t) => units(t.realizedPL) > 0n);
      // Range trades lose, Trend following ones win: Range is the setup that loses the most.
      const rangeTrades = losers.slice(0, 6);
      const trendTrades = winners.slice(0, 6);
      await bulkTag(page, journal, rangeTrades, tagNamed(journal, 'Range'));
      await bulkTag(page, journal, trendTrades, tagNamed(journal, 'Trend following'));

      await page.goto(CHAT_PAGE);
      await page.getByRole('button', { name: '+ New' }).click();
      const modal = page.getByRole('dialog', { name: 'Start a New Chat' });
      await modal.getByLabel('Chat Title').fill('Setups review');
      await modal.getByRole('button', { name: 'Create' }).click();
      await expect(modal).toBeHidden();
      const input = page.getByPlaceholder('Ask AI');
      await input.fill('Which setup loses me the most?');
      await input.press('Enter');

      const answer = page.getByRole('log', { name: 'Conversation' }).locator('[data-role="assistant"]');
      await expect(answer).toHaveCount(1);
      await expect(answer).toContainText(
        `The setup that loses you the most is "Range": ${signedMoney(netOf(rangeTrades))} over ${rangeTrades.length} closed trades (demo mode).`,
      );
      await expect(answer).toContainText('Trend following');
      await expect(answer).toContainText('Built-in analyst');
    });
  });
}
