import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  compareDecimals,
  subtractDecimals,
  sumDecimals,
  type AttachmentItem,
  type CandlesResponse,
  type MissedTradesResponse,
  type PlaybookResponse,
  type PlaybooksResponse,
  type TradeListItem,
  type TradeListResponse,
} from '@pipsense/contract';
import { readStackFacts, type StackFacts } from './stack/stack-facts';
import { apiAs, SHOTS, signedMoney, syncedOandaUser, tenThousandths, toast, VIEWPORTS } from './support';

/*
 * The review workspace end to end (docs/review.md), at 1280×800 and 390×844: a playbook written through its form,
 * three trades assigned and reviewed against it, its report of followed against broke; screenshots pasted into a
 * trade and viewed in the lightbox; a trade replayed to its exit with the keyboard; a missed trade logged and its
 * would-be outcome. Expected figures are worked out here from the trades API and the simulator's candles (read
 * through the app's candles route), never read off the screen under test.
 */

const TRADES_PAGE = '/trades/all_trades';
const PLAYBOOKS_PAGE = '/journal/playbooks';
const MISSED_PAGE = '/journal/missed_trades';
const PLAYBOOK = 'London breakout';
const GROUPS = [
  { name: 'Entry', rules: ['Price at a higher-timeframe level', 'Break and close beyond the range'] },
  { name: 'Risk', rules: ['Stop beyond the range', 'One percent risk'] },
] as const;
const RULES = GROUPS.flatMap((g) => g.rules);

const tradesTable = (page: Page) => page.getByRole('table', { name: 'Trades' });
const bodyRows = (page: Page) => tradesTable(page).getByRole('rowgroup').last().getByRole('row');

async function reviewUser(page: Page, baseURL: string | undefined, prefix: string) {
  const facts = readStackFacts(baseURL);
  const { token } = await syncedOandaUser(page, facts, { prefix, aiPlatform: 'gemini' });
  return { facts, token };
}

/** The closed trades of the account with the most trades, newest first, as the filtered list's first page shows. */
async function closedPage(page: Page, token: string, facts: StackFacts) {
  const account = [...facts.practice.accounts].sort((a, b) => b.trades - a.trades)[0]!;
  const query = `state=CLOSED&accountId=${encodeURIComponent(account.id)}`;
  const body = await apiAs<TradeListResponse>(page, token, `/api/v1/trade/get_trade_history?page=1&limit=10&${query}`);
  return { account, query, trades: body.data };
}

/** The trade list filtered to `query`, with its journal columns on (the selection checkboxes are among them). */
async function openTrades(page: Page, query: string, rows: number) {
  await page.goto(`${TRADES_PAGE}?${query}`);
  await expect(bodyRows(page)).toHaveCount(rows);
  await expect(tradesTable(page)).toHaveAttribute('aria-busy', 'false');
  const journalColumns = page.getByRole('checkbox', { name: 'Journal columns' });
  if (!(await journalColumns.isChecked())) await journalColumns.check();
  await expect(tradesTable(page).getByRole('columnheader', { name: 'Tags' })).toBeVisible();
}

async function openTradeModal(page: Page, tradeId: string): Promise<Locator> {
  const row = bodyRows(page).filter({ has: page.getByRole('checkbox', { name: `Select trade ${tradeId}` }) });
  await row.getByRole('button', { name: 'View Trade' }).click();
  const modal = page.getByRole('dialog', { name: 'Trade Details' });
  await expect(modal).toBeVisible();
  return modal;
}

async function closeModal(modal: Locator) {
  await modal.getByRole('button', { name: 'Close', exact: true }).last().click();
  await expect(modal).toBeHidden();
}

/** Money as the report writes it: 2 decimals, grouped, no plus sign, the currency code after. */
const money = (units: bigint, currency: string) => `${signedMoney(units, false)} ${currency}`;

/** The instrument's pip in price, as docs/review.md states it: 0.01 for JPY pairs and gold, else 0.0001. */
const pipOf = (instrument: string) => (/JPY|XAU/.test(instrument) ? '0.01' : '0.0001');

/** A price as a whole number of tenths of a pip, exactly (prices carry at most that precision). */
function pipTenths(price: string, pip: string): bigint {
  const places = pip.split('.')[1]!.length + 1;
  const [whole, frac = ''] = price.replace('-', '').split('.');
  const n = BigInt(whole! + frac.padEnd(places, '0').slice(0, places));
  return price.startsWith('-') ? -n : n;
}

/** Pips as the replay writes them: one decimal, a plus when positive ('+12.3 pips', '-4.0 pips', '0.0 pips'). */
function pipsText(tenths: bigint): string {
  const abs = tenths < 0n ? -tenths : tenths;
  const text = `${abs / 10n}.${abs % 10n}`;
  return `${tenths > 0n ? '+' : tenths < 0n ? '-' : ''}${text} pips`;
}

/**
 * What a missed long would have done (docs/review.md, Missed trades): M5 mid candles from its time, oldest first; the
 * first whose low reaches the stop ends it at −1 R (also when it reaches the target too), the first whose high reaches
 * the target ends it at the target's R. Null when neither is reached.
 */
function missedLong(candles: CandlesResponse['data']['candles'], from: number, stop: string, target: string) {
  for (const candle of candles) {
    if (Date.parse(candle.time) < from || !candle.mid) continue;
    if (compareDecimals(candle.mid.l, stop) <= 0) return 'stop' as const;
    if (compareDecimals(candle.mid.h, target) >= 0) return 'target' as const;
  }
  return null;
}

for (const viewport of VIEWPORTS) {
  const phone = viewport.name === 'phone';

  test.describe(`review workspace at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height }, timezoneId: 'UTC' });

    test('write a playbook, review three trades against it, read its report', async ({ page, baseURL }) => {
      const { facts, token } = await reviewUser(page, baseURL, `rv${viewport.name[0]}`);
      const { account, query, trades } = await closedPage(page, token, facts);
      expect(trades.length, 'closed trades on the first page').toBeGreaterThanOrEqual(3);
      const chosen = trades.slice(0, 3);

      // The playbook, through its form.
      await page.goto(PLAYBOOKS_PAGE);
      await page.getByRole('button', { name: 'New playbook' }).click();
      const form = page.getByRole('form', { name: 'New playbook' });
      await form.getByLabel('Name', { exact: true }).fill(PLAYBOOK);
      await form.getByLabel('Description').fill('Trade the first break of the Asian range after the London open.');
      await form.getByLabel('Instruments', { exact: true }).fill('eur/usd');
      await form.getByLabel('Instruments', { exact: true }).press('Enter');
      await expect(form.getByRole('list', { name: 'Instruments chosen' })).toHaveText('EUR_USD');
      await form.getByLabel('London', { exact: true }).check();
      // The form starts with the usual groups, each with an empty rule: two are kept and filled, the others removed.
      for (const extra of ['Exit', 'Context'])
        await form.getByRole('button', { name: `Remove group ${extra}` }).click();
      for (const group of GROUPS) {
        await expect(form.getByRole('textbox', { name: `Name of ${group.name}`, exact: true })).toHaveValue(group.name);
        for (const [r, rule] of group.rules.entries()) {
          if (r > 0) await form.getByRole('button', { name: `Add rule to ${group.name}` }).click();
          await form.getByRole('textbox', { name: `Rule ${r + 1} of ${group.name}`, exact: true }).fill(rule);
        }
      }
      await expect(form.getByRole('listitem', { name: /^Rule group / })).toHaveCount(GROUPS.length);
      await page.screenshot({ path: `${SHOTS}/review-playbook-form-${viewport.name}.png` });
      await form.getByRole('button', { name: 'Save playbook' }).click();
      await expect(toast(page, `Added the playbook “${PLAYBOOK}”`)).toBeVisible();
      const playbooks = (await apiAs<PlaybooksResponse>(page, token, '/api/v1/playbook/get_playbooks')).data;
      expect(playbooks).toHaveLength(1);
      const playbook = playbooks[0]!;
      expect(playbook.instruments).toEqual(['EUR_USD']);
      expect(playbook.sessions).toEqual(['London']);
      expect(playbook.groups.map((g) => [g.name, g.rules.map((r) => r.text)])).toEqual(
        GROUPS.map((g) => [g.name, [...g.rules]]),
      );

      // Three trades assigned at once from the trade list.
      await openTrades(page, query, trades.length);
      for (const trade of chosen) await page.getByRole('checkbox', { name: `Select trade ${trade.tradeId}` }).check();
      const bar = page.getByRole('region', { name: 'Assign selected trades to a playbook' });
      await bar.getByLabel('Playbook for the selected trades').selectOption({ label: PLAYBOOK });
      await bar.getByRole('button', { name: 'Assign to playbook' }).click();
      await expect(toast(page, `Assigned 3 trades to “${PLAYBOOK}”.`)).toBeVisible();

      // Reviewed in each trade's Playbook section: the first two followed every rule, the third broke the last one.
      for (const [i, trade] of chosen.entries()) {
        const modal = await openTradeModal(page, trade.tradeId);
        const section = modal.getByRole('region', { name: 'Playbook' });
        await expect(section.getByLabel('Playbook', { exact: true })).toHaveValue(playbook.id);
        const ticked = i < 2 ? RULES : RULES.slice(0, -1);
        for (const rule of ticked) await section.getByLabel(rule).check();
        await section.getByLabel('Not reviewed yet').check();
        await expect(section.getByLabel('Reviewed', { exact: true })).toBeChecked();
        if (i === 2) await page.screenshot({ path: `${SHOTS}/review-trade-playbook-${viewport.name}.png` });
        await section.getByRole('button', { name: 'Save review' }).click();
        await expect(toast(page, 'Saved the playbook review').last()).toBeVisible();
        await expect(section.getByRole('status')).toBeVisible();
        await closeModal(modal);
      }
      const reviewed = await Promise.all(
        chosen.map((t) =>
          apiAs<{ data: { reviewed: boolean; followedRuleIds: string[] } }>(
            page,
            token,
            `/api/v1/playbook/get_trade_playbook/${t.accountId}/${t.tradeId}`,
          ),
        ),
      );
      expect(reviewed.map((r) => [r.data.reviewed, r.data.followedRuleIds.length])).toEqual([
        [true, 4],
        [true, 4],
        [true, 3],
      ]);

      // The report: followed all rules (the first two) against broke one (the third), net P/L from the list API.
      await page.goto(PLAYBOOKS_PAGE);
      await page.getByRole('link', { name: PLAYBOOK, exact: true }).click();
      await expect(page).toHaveURL(/\/journal\/playbooks\?playbook=/);
      const compare = page.getByRole('table', { name: 'Followed all rules against broke at least one' });
      const row = (label: string) =>
        compare.getByRole('row').filter({ has: page.getByRole('rowheader', { name: label, exact: true }) });
      const followedPL = chosen.slice(0, 2).reduce((s, t) => s + tenThousandths(t.realizedPL), 0n);
      const brokePL = tenThousandths(chosen[2]!.realizedPL);
      await expect(row('Trades').getByRole('cell')).toHaveText(['2', '1']);
      await expect(row('Net P/L').getByRole('cell')).toHaveText([
        money(followedPL, account.currency),
        money(brokePL, account.currency),
      ]);
      const figures = page.getByRole('definition').filter({ hasText: 'reviewed' });
      await expect(figures).toHaveText('66.7 % of 3 reviewed');
      await expect(page.getByRole('list', { name: 'Rules broken' }).getByRole('listitem').first()).toHaveText(
        `${RULES.at(-1)}broken 1 time`,
      );
      await page.screenshot({ path: `${SHOTS}/review-report-${viewport.name}.png`, fullPage: true });

      // Two screenshots pasted into the first trade, viewed in the lightbox.
      await openTrades(page, query, trades.length);
      const modal = await openTradeModal(page, chosen[0]!.tradeId);
      const panel = modal.getByRole('region', { name: 'Screenshots' });
      const drop = panel.getByRole('group', { name: 'Add images to Screenshots' });
      await drop.focus();
      // Two PNGs drawn in the page (a coloured block with a white stripe: real pixels, no metadata), pasted at once.
      const images = [
        { name: 'entry.png', width: 96, height: 64, colour: '#1e78c8' },
        { name: 'exit.png', width: 80, height: 120, colour: '#c83c28' },
      ];
      await drop.evaluate(async (el, specs) => {
        const data = new DataTransfer();
        for (const spec of specs) {
          const canvas = document.createElement('canvas');
          canvas.width = spec.width;
          canvas.height = spec.height;
          const context = canvas.getContext('2d')!;
          context.fillStyle = spec.colour;
          context.fillRect(0, 0, spec.width, spec.height);
          context.fillStyle = '#ffffff';
          context.fillRect(0, 0, Math.floor(spec.width / 3), spec.height);
          const blob = await new Promise<Blob>((done) => canvas.toBlob((b) => done(b!), 'image/png'));
          data.items.add(new File([blob], spec.name, { type: 'image/png' }));
        }
        el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }, images);
      const thumbs = panel.getByRole('list', { name: 'Screenshots of this item' }).getByRole('img');
      await expect(thumbs).toHaveCount(2);
      for (const thumb of await thumbs.all())
        await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      if (phone) await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/review-screenshots-${viewport.name}.png` });

      const stored = await apiAs<{ data: AttachmentItem[] }>(
        page,
        token,
        `/api/v1/attachment/get_attachments?target=trade&accountId=${encodeURIComponent(chosen[0]!.accountId)}&tradeId=${chosen[0]!.tradeId}`,
      );
      // Both kept, re-encoded at their own sizes; the panel shows them in the list's order.
      expect(stored.data.map((a) => `${a.width}x${a.height}`).sort()).toEqual(
        images.map((i) => `${i.width}x${i.height}`).sort(),
      );
      const [first, second] = stored.data.map((a) => [a.width, a.height]);
      await panel.getByRole('button', { name: 'Open image 1' }).click();
      const viewer = page.getByRole('dialog', { name: 'Image 1 of 2' });
      await expect(viewer).toBeVisible();
      // The viewer's name follows the image shown.
      const full = page.getByRole('dialog', { name: /^Image \d of 2$/ }).locator('img.att-lightbox-image');
      const natural = () => full.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
      await expect.poll(natural).toEqual(first);
      await page.screenshot({ path: `${SHOTS}/review-lightbox-${viewport.name}.png` });
      await page.keyboard.press('ArrowRight');
      await expect(page.getByRole('dialog', { name: 'Image 2 of 2' })).toBeVisible();
      await expect.poll(natural).toEqual(second);
      await page.keyboard.press('ArrowLeft');
      await expect(page.getByRole('dialog', { name: 'Image 1 of 2' })).toBeVisible();
      // Escape leaves the viewer, not the trade's modal under it.
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog', { name: /^Image \d of 2$/ })).toHaveCount(0);
      await expect(modal).toBeVisible();
      await closeModal(modal);
    });

    test('replay a closed trade to its exit with the keyboard', async ({ page, baseURL }) => {
      const { facts, token } = await reviewUser(page, baseURL, `rp${viewport.name[0]}`);
      const { query, trades } = await closedPage(page, token, facts);
      // A closed trade with an entry and a close price whose candles the simulator serves (the replay answers).
      let trade: TradeListItem | undefined;
      for (const t of trades) {
        if (!t.price || !t.averageClosePrice) continue;
        const res = await page.request.get(`/api/v1/trade/get_replay/${t.accountId}/${t.tradeId}`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        if (res.status() === 200) {
          trade = t;
          break;
        }
      }
      expect(trade, 'a closed trade the simulator has candles for').toBeDefined();
      const pip = pipOf(trade!.instrument);
      const long = !trade!.initialUnits.startsWith('-');
      const moved = pipTenths(trade!.averageClosePrice!, pip) - pipTenths(trade!.price!, pip);
      const resultPips = pipsText(long ? moved : -moved);

      await openTrades(page, query, trades.length);
      const modal = await openTradeModal(page, trade!.tradeId);
      await modal.getByRole('group', { name: 'Chart mode' }).getByRole('button', { name: 'Replay' }).click();
      const replay = modal.getByRole('region', { name: 'Replay' });
      const figures = replay.getByLabel('Replay figures');
      await expect(figures).toContainText('Not entered yet');
      await replay.getByLabel('Speed').selectOption('20');
      // The keys are the replay's while it has the focus (the speed picker took it).
      await replay.focus();
      await page.keyboard.press('Space');
      const events = replay.getByRole('list', { name: 'Events so far' });
      await expect(events.getByRole('listitem').filter({ hasText: /^Entry/ })).toHaveCount(1);
      await expect(events.getByRole('listitem').filter({ hasText: /^Exit/ })).toHaveCount(1, { timeout: 60_000 });
      await expect(replay.getByRole('button', { name: 'Play' })).toBeVisible();
      const result = figures
        .locator('div')
        .filter({ has: page.getByRole('term').getByText('Result', { exact: true }) });
      await expect(result.getByRole('definition')).toHaveText(new RegExp(`^${resultPips.replace('+', '\\+')}( ·|$)`));
      await expect(replay.locator('.trade-chart-canvas canvas').first()).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/review-replay-exit-${viewport.name}.png` });

      // A step back is before the exit's candle: open again, the exit not yet in the events; a step on, the result.
      await page.keyboard.press('ArrowLeft');
      await expect(figures.getByRole('term').getByText('Open P/L', { exact: true })).toBeVisible();
      await expect(events.getByRole('listitem').filter({ hasText: /^Exit/ })).toHaveCount(0);
      await page.keyboard.press('ArrowRight');
      await expect(result.getByRole('definition')).toHaveText(new RegExp(`^${resultPips.replace('+', '\\+')}( ·|$)`));
      await expect(events.getByRole('listitem').filter({ hasText: /^Exit/ })).toHaveCount(1);
      // Escape is still the modal's.
      await page.keyboard.press('Escape');
      await expect(modal).toBeHidden();
    });

    test('log a missed trade and see what it would have done', async ({ page, baseURL }) => {
      const { facts, token } = await reviewUser(page, baseURL, `ms${viewport.name[0]}`);
      const { trades } = await closedPage(page, token, facts);
      const created = await apiAs<PlaybookResponse>(page, token, '/api/v1/playbook/create_playbook', {
        name: PLAYBOOK,
        groups: GROUPS.map((g) => ({ name: g.name, rules: g.rules.map((text) => ({ text })) })),
      });
      const playbook = created.data;

      // A time the simulator has candles after: a trade's open, on the five minutes, at least a week ago.
      const week = 7 * 86_400_000;
      const source = trades.find((t) => Date.parse(t.openTime) < Date.now() - week - 86_400_000) ?? trades.at(-1)!;
      const instrument = source.instrument;
      const at = Math.floor(Date.parse(source.openTime) / 300_000) * 300_000;
      const range = new URLSearchParams({
        instrument,
        granularity: 'M5',
        price: 'M',
        from: new Date(at).toISOString(),
        to: new Date(at + week).toISOString(),
      });
      const candles = (await apiAs<CandlesResponse>(page, token, `/api/v1/trade/candles?${range}`)).data.candles;
      const first = candles.find((c) => Date.parse(c.time) >= at && c.mid);
      expect(first, `M5 candles of ${instrument} from ${new Date(at).toISOString()}`).toBeDefined();
      const pip = pipOf(instrument);
      const entry = first!.mid!.o;
      const stop = subtractDecimals(entry, sumDecimals([pip, pip, pip, pip, pip, pip, pip, pip, pip, pip]));
      const target = sumDecimals([entry, ...Array<string>(15).fill(pip)]);
      const outcome = missedLong(candles, at, stop, target);
      expect(outcome, 'a level reached within the week').not.toBeNull();
      // R on the target: 15 pips won for 10 risked.
      const wouldBe = outcome === 'target' ? '+1.50R' : '-1.00R';

      await page.goto(MISSED_PAGE);
      await page.getByRole('button', { name: 'Log a missed trade' }).first().click();
      const form = page.getByRole('form', { name: 'Log a missed trade' });
      await form.getByLabel('Instrument').fill(instrument);
      await form.getByLabel('Side').selectOption('long');
      await form.getByLabel('Time').fill(new Date(at).toISOString().slice(0, 16));
      await form.getByLabel('Entry').fill(entry);
      await form.getByLabel('Stop').fill(stop);
      await form.getByLabel('Target (optional)').fill(target);
      await form.getByLabel('Playbook').selectOption({ label: PLAYBOOK });
      await form.getByLabel('Note').fill('Saw the break, hesitated.');
      await form.getByRole('button', { name: 'Save' }).click();
      await expect(toast(page, 'Logged the missed trade')).toBeVisible();

      const list = page.getByRole('list', { name: 'Missed trades' });
      const row = list.locator('li.missed-row');
      await expect(row).toHaveCount(1);
      await expect(row.locator('.missed-outcome')).toContainText(outcome === 'target' ? 'Target hit' : 'Stop hit');
      await expect(row.locator('.missed-outcome')).toContainText(`would-be ${wouldBe}`);
      const stored = (await apiAs<MissedTradesResponse>(page, token, '/api/v1/playbook/get_missed_trades')).data;
      expect(stored.map((m) => [m.instrument, m.time, m.entry, m.stop, m.target, m.playbookId])).toEqual([
        [instrument, new Date(at).toISOString(), entry, stop, target, playbook.id],
      ]);
      await page.screenshot({ path: `${SHOTS}/review-missed-${viewport.name}.png`, fullPage: true });

      // The playbook's report counts it with its would-be R.
      await page.goto(PLAYBOOKS_PAGE);
      await page.getByRole('link', { name: PLAYBOOK, exact: true }).click();
      const missed = page
        .locator('.pb-figure')
        .filter({ has: page.getByRole('term').getByText('Missed', { exact: true }) })
        .getByRole('definition');
      await expect(missed).toHaveText(`1 · would-be ${wouldBe}`);
    });
  });
}
