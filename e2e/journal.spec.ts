import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type {
  BulkTagResponse,
  DayResponse,
  TagItem,
  TagsResponse,
  TradeListItem,
  TradeListResponse,
  TradeNoteResponse,
  UpdateDayResponse,
} from '@pipsense/contract';
import { parseCsv } from '../apps/server/src/test/csv';
import { readStackFacts } from './stack/stack-facts';
import { apiAs, homeMoney, rate, signedMoney, syncedOandaUser, tenThousandths, toast, type HomeMoney } from './support';

/*
 * The trading journal end to end: each journey at 1280×800 and at 390×844, in the built app
 * against the OANDA simulator of e2e/stack. Expected values are worked out here from the trades API (the simulator's
 * book as synced), never read off the screen under test.
 */

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800, timezoneId: 'UTC' },
  { name: 'phone', width: 390, height: 844, timezoneId: 'Asia/Tokyo' },
] as const;

const TRADES_PAGE = '/trades/all_trades';
const CALENDAR_PAGE = '/journal/calendar';
const CHAT_PAGE = '/chat/ai_chat';

/** The columns of the CSV export, in order (decimals as stored, UTC and local times, notes and tags). */
const CSV_HEADER = [
  'Account',
  'Trade ID',
  'Mode',
  'Instrument',
  'Side',
  'State',
  'Initial units',
  'Current units',
  'Open time (UTC)',
  'Open time (local)',
  'Close time (UTC)',
  'Close time (local)',
  'Entry price',
  'Average close price',
  'Realized P/L',
  'Unrealized P/L',
  'Financing',
  'Stop loss',
  'Take profit',
  'Trailing stop distance',
  'Initial stop',
  'Initial risk (pips)',
  'R multiple',
  'MAE price',
  'MAE (pips)',
  'MAE (R)',
  'MFE price',
  'MFE (pips)',
  'MFE (R)',
  'Rating',
  'Tags',
  'Note',
  'Attachments',
  'Platform',
  'Symbol',
  'Lots',
  'Commission',
  'Swap',
];

// ——— exact decimals ———

const netOf = (trades: readonly TradeListItem[]) => trades.reduce((sum, t) => sum + tenThousandths(t.realizedPL), 0n);
/** Closed trades' net P/L converted into the home currency, in 1/10,000 units. */
const netInHome = (money: HomeMoney, trades: readonly TradeListItem[]) =>
  trades.reduce((sum, t) => sum + tenThousandths(money.toHome(t, t.realizedPL)), 0n);
const closedOf = (trades: readonly TradeListItem[]) => trades.filter((t) => t.state === 'CLOSED');
const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// ——— the API as the signed-in trader ———

interface Journal {
  token: string;
  trades: TradeListItem[];
  tags: TagItem[];
  timeZone: string;
}

async function allTrades(page: Page, token: string): Promise<TradeListItem[]> {
  const trades: TradeListItem[] = [];
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

async function bulkTag(page: Page, journal: Journal, trades: readonly TradeListItem[], tag: TagItem) {
  const body = { trades: trades.map((t) => ({ accountId: t.accountId, tradeId: t.tradeId })), tagIds: [tag.id] };
  const res = await apiAs<BulkTagResponse>(page, journal.token, '/api/v1/journal/bulk_tag', body);
  expect(res.data.trades).toBe(trades.length);
}

/** 'YYYY-MM-DD' of an instant in a zone. */
function localDay(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    Date.parse(iso),
  );
}

/** 'YYYY-MM-DD HH:MM:SS' of an instant on the wall clock of a zone. */
function wallClock(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'medium' }).format(
    Date.parse(iso),
  );
}

/** Closed trades with distinct realized P/L (so a sort by P/L has one right order), oldest opened first. */
function distinctClosed(trades: readonly TradeListItem[]): TradeListItem[] {
  const seen = new Set<bigint>();
  return closedOf(trades)
    .filter((t) => {
      const pl = tenThousandths(t.realizedPL);
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

/** The Trades screen with its journal columns on (off by default: the table then has exactly the spec's columns). */
async function openTrades(page: Page, query = '') {
  await page.goto(`${TRADES_PAGE}${query}`);
  await expect(bodyRows(tradesTable(page))).toHaveCount(10);
  await expect(tradesTable(page)).toHaveAttribute('aria-busy', 'false');
  const journalColumns = page.getByRole('checkbox', { name: 'Journal columns' });
  if (!(await journalColumns.isChecked())) {
    await expect(tradesTable(page).getByRole('columnheader')).toHaveText(SPEC_COLUMNS);
    await journalColumns.check();
  }
  await expect(tradesTable(page).getByRole('columnheader', { name: 'Tags' })).toBeVisible();
}

/** The trade table's columns, in order (docs/PRODUCT.md, Trade list). */
const SPEC_COLUMNS = [
  'Trade ID',
  'Instrument',
  'Price',
  'Initial Units',
  'Current Units',
  'Realized P/L',
  'Unrealized P/L',
  'State',
  'Actions',
];

/** The filter form; on a phone it folds behind its toggle, which is opened first. */
async function filterForm(page: Page, phone: boolean): Promise<Locator> {
  const filters = page.getByRole('region', { name: 'Trade filters' });
  if (phone) {
    const toggle = filters.getByRole('button', { name: /^Filters/ });
    await toggle.click();
    await expect(filters.getByRole('button', { name: /^Hide filters/ })).toHaveAttribute('aria-expanded', 'true');
  }
  await expect(filters.getByLabel('Opened from')).toBeVisible();
  return filters;
}

/** Picks an existing tag in a tag picker: type part of its name, then its suggestion. */
async function pickTag(scope: Locator, label: string, tag: TagItem) {
  const kind = { setup: 'Setup', mistake: 'Mistake', emotion: 'Emotion' }[tag.kind];
  await scope.getByLabel(label, { exact: true }).fill(tag.name.slice(0, 4));
  await scope.getByRole('button', { name: `Add tag ${tag.name} (${kind})`, exact: true }).click();
}

for (const viewport of VIEWPORTS) {
  const phone = viewport.name === 'phone';

  test.describe(`journal at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height }, timezoneId: viewport.timezoneId });

    test('open a trade, write a note, rate and tag it', async ({ page, baseURL }) => {
      const journal = await journalUser(page, baseURL, `jn${viewport.name[0]}`);
      const breakout = tagNamed(journal, 'Breakout');
      const note = 'Waited for the **retest**, entry <b>late</b>.\n\nNext time: limit order at the level.';
      await openTrades(page);
      // The first row is the newest trade, as the API's first page lists it (trade ids repeat across accounts).
      const firstPage = await apiAs<TradeListResponse>(
        page,
        journal.token,
        '/api/v1/trade/get_trade_history?page=1&limit=10',
      );
      const trade = firstPage.data[0]!;
      const tradeId = trade.tradeId;
      await expect(tradeIdCells(page).first()).toHaveText(tradeId);

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
      const row = bodyRows(tradesTable(page)).first();
      await expect(row.locator('td').nth(1)).toHaveText(tradeId);
      await expect(row.getByRole('img', { name: 'Rated 4 of 5' })).toBeVisible();
      await expect(row).toContainText('Breakout');
      await expect(row).toContainText('Late entry');
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
      const firstPage = await apiAs<TradeListResponse>(
        page,
        journal.token,
        '/api/v1/trade/get_trade_history?page=1&limit=10',
      );
      const keys = firstPage.data.map((t) => `${t.accountId}:${t.tradeId}`);
      await expect(tradeIdCells(page)).toHaveText(firstPage.data.map((t) => t.tradeId));

      await tradesTable(page).getByRole('checkbox', { name: 'Select all trades on this page' }).check();
      const bar = page.getByRole('region', { name: 'Tag selected trades' });
      await expect(bar.getByRole('status')).toHaveText('10 trades selected');
      await pickTag(bar, 'Tags for the selected trades', fomo);
      await bar.getByRole('button', { name: 'Tag selected' }).click();
      await expect(toast(page, 'Tagged 10 trades with 1 tag (10 new tags added).')).toBeVisible();
      await expect(bar).toBeHidden();

      // Every row of the page carries the tag, and the server lists exactly those ten under it.
      for (const [i, t] of firstPage.data.entries())
        await expect(bodyRows(tradesTable(page)).nth(i).locator('td').nth(10), `trade ${t.tradeId}`).toContainText(
          'FOMO',
        );
      const tagged = await apiAs<TradeListResponse>(
        page,
        journal.token,
        `/api/v1/trade/get_trade_history?page=1&limit=100&tag=${fomo.id}`,
      );
      expect(tagged.total).toBe(10);
      expect(tagged.data.map((t) => `${t.accountId}:${t.tradeId}`).sort()).toEqual([...keys].sort());
    });

    test('filter the list by tag and date, sort by P/L', async ({ page, baseURL }) => {
      const journal = await journalUser(page, baseURL, `jf${viewport.name[0]}`);
      const pullback = tagNamed(journal, 'Pullback');
      // Sixteen closed trades spread over the history carry the tag; the range keeps the middle of them.
      const candidates = distinctClosed(journal.trades);
      const step = Math.floor(candidates.length / 16);
      const tagged = Array.from({ length: 16 }, (_, i) => candidates[i * step]!);
      await bulkTag(page, journal, tagged, pullback);
      const from = localDay(tagged[4]!.openTime, journal.timeZone);
      const to = localDay(tagged[11]!.openTime, journal.timeZone);
      const expected = tagged
        .filter((t) => {
          const day = localDay(t.openTime, journal.timeZone);
          return day >= from && day <= to;
        })
        .sort((a, b) => (tenThousandths(a.realizedPL) < tenThousandths(b.realizedPL) ? -1 : 1));
      expect(expected.length).toBeGreaterThanOrEqual(8);
      // The first page of ten, lowest P/L first and highest first.
      const lowest = expected.slice(0, 10).map((t) => t.tradeId);
      const highest = [...expected]
        .reverse()
        .slice(0, 10)
        .map((t) => t.tradeId);

      await openTrades(page);
      const filters = await filterForm(page, phone);
      await filters.getByLabel('Opened from').fill(from);
      await filters.getByLabel('Opened to').fill(to);
      await pickTag(filters, 'Filter by tag', pullback);
      await filters.getByLabel('Sort by').selectOption({ label: 'P/L, lowest first' });
      await filters.getByRole('button', { name: 'Apply filters' }).click();

      const url = new URL(page.url());
      await expect(page).toHaveURL(/sort=realizedPL/);
      const params = new URL(page.url()).searchParams;
      expect(url.pathname).toBe(TRADES_PAGE);
      expect(params.get('from')).toBe(from);
      expect(params.get('to')).toBe(to);
      expect(params.getAll('tag')).toEqual([pullback.id]);
      expect(params.get('order')).toBe('asc');
      await expect(tradeIdCells(page)).toHaveText(lowest);
      await expect(
        page.getByText(`Showing 1–${lowest.length} of ${expected.length} trades`, { exact: true }),
      ).toBeVisible();
      await expect(tradesTable(page).getByRole('columnheader', { name: 'Sort by realized P/L' })).toHaveAttribute(
        'aria-sort',
        'ascending',
      );

      // Highest first by the column header (the header is the sort control on every width).
      await tradesTable(page).getByRole('button', { name: 'Sort by realized P/L' }).click();
      await expect(page).toHaveURL(/order=desc/);
      await expect(tradeIdCells(page)).toHaveText(highest);

      // The back button returns to the previous view; a bookmark of the filtered view opens it as it was.
      await page.goBack();
      await expect(page).toHaveURL(/order=asc/);
      await expect(tradeIdCells(page)).toHaveText(lowest);
      await page.goto(page.url());
      await expect(tradeIdCells(page)).toHaveText(lowest);
    });

    test('open the calendar, click a losing day and read its journal entry', async ({ page, baseURL }) => {
      const journal = await journalUser(page, baseURL, `jc${viewport.name[0]}`);
      // The practice accounts are in two currencies and the simulator has their daily closes: a day's P/L is converted
      // into the home currency (docs/decisions/024-currencies-never-mixed.md).
      const money = await homeMoney(page, journal.token, readStackFacts(baseURL));
      const netHome = (list: readonly TradeListItem[]) => netInHome(money, list);
      // The latest losing day, in the browser's zone (the calendar's).
      const byDay = new Map<string, TradeListItem[]>();
      for (const t of closedOf(journal.trades)) {
        const day = localDay(t.closeTime!, journal.timeZone);
        byDay.set(day, [...(byDay.get(day) ?? []), t]);
      }
      const [date, trades] = [...byDay]
        .filter(([, list]) => netHome(list) < 0n)
        .sort((a, b) => (a[0] < b[0] ? 1 : -1))[0]!;
      const note = 'Two losers in a row on NFP: no trading the first hour after news.';
      const written = await apiAs<UpdateDayResponse>(page, journal.token, `/api/v1/journal/update_day/${date}`, {
        note,
        mood: 2,
      });
      expect(written.data).toMatchObject({ date, note, mood: 2 });

      // Open the month after, then step back to the day's month.
      const [y, m] = date.split('-').map(Number) as [number, number];
      const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
      await page.goto(`${CALENDAR_PAGE}?month=${next}`);
      await page.getByRole('button', { name: 'Previous month' }).click();
      await expect(page.getByRole('grid', { name: `Daily net P/L, ${date.slice(0, 7)}` })).toBeVisible();
      const label = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeZone: 'UTC' }).format(
        new Date(`${date}T00:00:00Z`),
      );
      // The month's header names the home currency ("Net P/L (EUR)"); a day's figure is written without it.
      const net = signedMoney(netHome(trades));
      const count = trades.length === 1 ? '1 trade' : `${trades.length} trades`;
      const cell = page.getByRole('button', { name: `${label}, net P/L ${net}, ${count}, journal entry`, exact: true });
      await expect(cell).toBeVisible();
      await expect(cell).toHaveClass(/loss/);

      await cell.click();
      await expect(page).toHaveURL(new RegExp(`day=${date}`));
      const panel = page.getByRole('dialog', { name: label });
      await expect(panel.getByRole('heading', { name: new RegExp(`^${escapeRe(count)} closed`) })).toContainText(
        `Net ${net}`,
      );
      await expect(panel.locator('.day-trade')).toHaveCount(trades.length);
      for (const t of trades) await expect(panel.getByText(`#${t.tradeId} · closed`).first()).toBeVisible();
      const entry = panel.getByRole('form', { name: 'Journal entry' });
      await expect(entry.getByLabel('Notes')).toHaveValue(note);
      await expect(entry.getByRole('radio', { name: '2 · Bad' })).toHaveAttribute('aria-checked', 'true');
      await expect(entry.getByRole('status')).toHaveText(/^Saved /);

      // The day as the API gives it agrees with the screen.
      const day = await apiAs<DayResponse>(
        page,
        journal.token,
        `/api/v1/journal/get_day/${date}?timeZone=${encodeURIComponent(journal.timeZone)}`,
      );
      expect(day.data.trades.map((t) => t.tradeId).sort()).toEqual(trades.map((t) => t.tradeId).sort());
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
      // Two currencies with the simulator's daily closes: the tag's net P/L in the home currency (decision 024).
      const money = await homeMoney(page, journal.token, readStackFacts(baseURL));
      await expect(breakoutRow.getByRole('cell').nth(2)).toHaveText(signedMoney(netInHome(money, breakoutClosed)));
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
      const wins = breakoutClosed.filter((t) => tenThousandths(t.realizedPL) > 0n).length;
      const losses = breakoutClosed.filter((t) => tenThousandths(t.realizedPL) < 0n).length;
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

    test('export the filtered list as CSV', async ({ page, baseURL }) => {
      const journal = await journalUser(page, baseURL, `je${viewport.name[0]}`);
      const news = tagNamed(journal, 'News');
      const calm = tagNamed(journal, 'Calm');
      const closed = distinctClosed(journal.trades);
      const tagged = closed.filter((_, i) => i % 9 === 4).slice(0, 12);
      await bulkTag(page, journal, tagged, news);
      // One of them with a note that needs quoting, a rating and a second tag.
      const noted = tagged[3]!;
      const note = 'Faded the spike, "too early".\nStill +R, closed at 1.0850, manually';
      await apiAs<TradeNoteResponse>(
        page,
        journal.token,
        `/api/v1/journal/update_trade_note/${noted.accountId}/${noted.tradeId}`,
        { note, rating: 3, tagIds: [news.id, calm.id] },
      );
      const expected = [...tagged].sort((a, b) =>
        tenThousandths(a.realizedPL) < tenThousandths(b.realizedPL) ? 1 : -1,
      );

      await openTrades(page, `?tag=${news.id}&sort=realizedPL&order=desc`);
      await expect(tradeIdCells(page)).toHaveText(expected.slice(0, 10).map((t) => t.tradeId));
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const download = await downloading;
      await expect(
        toast(page, /^Exported the filtered trades to pipsense-trades-\d{4}-\d{2}-\d{2}\.csv\.$/),
      ).toBeVisible();
      expect(download.suggestedFilename()).toMatch(/^pipsense-trades-\d{4}-\d{2}-\d{2}\.csv$/);
      const [header, ...rows] = parseCsv(readFileSync(await download.path(), 'utf8'));

      expect(header).toEqual(CSV_HEADER);
      const col = (name: string) => CSV_HEADER.indexOf(name);
      expect(rows.map((r) => r[col('Trade ID')])).toEqual(expected.map((t) => t.tradeId));
      for (const [i, t] of expected.entries()) {
        const r = rows[i]!;
        expect(r).toHaveLength(CSV_HEADER.length);
        expect(r[col('Account')]).toBe(t.accountId);
        expect(r[col('Instrument')]).toBe(t.instrument);
        expect(r[col('State')]).toBe('CLOSED');
        expect(r[col('Realized P/L')], 'decimals exactly as stored').toBe(t.realizedPL);
        expect(r[col('Entry price')]).toBe(t.price);
        expect(r[col('Open time (UTC)')]).toBe(t.openTime);
        expect(r[col('Close time (UTC)')]).toBe(t.closeTime);
        // Beside UTC, the trader's wall clock (the browser's zone).
        expect(r[col('Open time (local)')], "open time in the trader's zone").toBe(
          wallClock(t.openTime, journal.timeZone),
        );
        expect(r[col('Close time (local)')], "close time in the trader's zone").toBe(
          wallClock(t.closeTime!, journal.timeZone),
        );
        expect(r[col('Side')]).toBe(t.initialUnits.startsWith('-') ? 'short' : 'long');
        const isNoted = t.tradeId === noted.tradeId && t.accountId === noted.accountId;
        expect(r[col('Tags')]!.split('; ').sort()).toEqual(isNoted ? ['emotion:Calm', 'setup:News'] : ['setup:News']);
        expect(r[col('Note')]).toBe(isNoted ? note : '');
        expect(r[col('Rating')]).toBe(isNoted ? '3' : '');
      }
    });

    test('ask the chat which setup loses the most', async ({ page, baseURL }) => {
      const journal = await journalUser(page, baseURL, `jq${viewport.name[0]}`);
      const closed = distinctClosed(journal.trades);
      const losers = closed.filter((t) => tenThousandths(t.realizedPL) < 0n);
      const winners = closed.filter((t) => tenThousandths(t.realizedPL) > 0n);
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
