import { expect, test, type Locator, type Page } from '@playwright/test';
import type { TagItem, TagsResponse, TradeItem, TradeListResponse, TradeNoteResponse } from '@pipsense/contract';
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
      await modal.getByRole('button', { name: 'Close' }).first().click();
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
  });
}
