import { describe, expect, it, vi, beforeEach } from 'vitest';
import { screen, within, waitFor, fireEvent } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { tagsResponse, tradeNoteResponse, type TagItem, type TradeListItem } from '@pipsense/contract';
import { deferred, errorBody, fakeApi, type Reply } from '../../../test/fake-api';
import { findOpenDialog, renderWithProviders } from '../../../test/render';
import { trade, tradePage } from '../test-fixtures';
import { TradesPage } from './trades-page';

vi.mock('lightweight-charts', () => import('../../../test/lightweight-charts-fake'));

const HISTORY = '/api/v1/trade/get_trade_history';
const EXPORT = '/api/v1/trade/export_trades';
const TAGS = '/api/v1/journal/get_tags';
const CREATE_TAG = '/api/v1/journal/create_tag';
const BULK = '/api/v1/journal/bulk_tag';
const NOTE = '/api/v1/journal/get_trade_note/:accountId/:tradeId';
const SAVE_NOTE = '/api/v1/journal/update_trade_note/:accountId/:tradeId';
const ACCOUNT = '101-004-27183640-001';
const NOTE_PATH = `/api/v1/journal/get_trade_note/${ACCOUNT}/5253`;

const tag = (id: string, name: string, kind: TagItem['kind']): TagItem => ({
  id,
  name,
  kind,
  trades: 0,
  createdAt: '2025-10-01T00:00:00.000Z',
  updatedAt: '2025-10-01T00:00:00.000Z',
});
const TAG_LIST = [tag('t1', 'Breakout', 'setup'), tag('t2', 'FOMO', 'emotion'), tag('t3', 'Moved stop', 'mistake')];
const tagsBody = (tags: TagItem[] = TAG_LIST) => ({
  body: tagsResponse.parse({ success: true, message: 'Tags fetched', data: tags }),
});

/** The page inside a router that shows the URL and can go back, as the browser would. */
function Harness() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <output aria-label="URL">{location.search}</output>
      <button type="button" onClick={() => void navigate(-1)}>
        Browser back
      </button>
      <TradesPage />
    </>
  );
}
const renderAt = (search = '') =>
  renderWithProviders(
    <Routes>
      <Route path="/trades/all_trades" element={<Harness />} />
    </Routes>,
    { path: `/trades/all_trades${search}` },
  );

const table = () => screen.getByRole('table', { name: 'Trades' });
const bodyRows = () => within(table()).getAllByRole('row').slice(1);
const localStart = (day: string) => new Date(`${day}T00:00:00.000`).toISOString();
const localEnd = (day: string) => new Date(`${day}T23:59:59.999`).toISOString();

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('test-token'));
});

describe('Trades list: filters and sort in the URL', () => {
  it('sends the filters of a bookmarked URL to get_trade_history', async () => {
    const api = fakeApi({ [HISTORY]: () => ({ body: tradePage([trade()]) }), [TAGS]: () => tagsBody() });
    renderAt(
      '?from=2025-10-01&to=2025-10-31&instrument=eur_usd&side=long&outcome=loss&state=CLOSED&accountId=' +
        `${ACCOUNT}&tag=t1&tag=t2&q=fomo&hasNote=true&sort=realizedPL&order=asc`,
    );
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    const search = api.to(HISTORY).at(-1)!.search;
    expect(Object.fromEntries([...search.keys()].map((k) => [k, search.getAll(k).join('|')]))).toEqual({
      page: '1',
      limit: '10',
      from: localStart('2025-10-01'),
      to: localEnd('2025-10-31'),
      instrument: 'EUR_USD',
      side: 'long',
      outcome: 'loss',
      state: 'CLOSED',
      accountId: ACCOUNT,
      tag: 't1|t2',
      q: 'fomo',
      hasNote: 'true',
      sort: 'realizedPL',
      order: 'asc',
    });
    // The form shows the URL's view, and the header its sort.
    expect(screen.getByLabelText('Opened from')).toHaveValue('2025-10-01');
    expect(screen.getByLabelText('Outcome')).toHaveValue('loss');
    expect(screen.getByRole('button', { name: 'Sort by realized P/L' }).closest('th')).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    expect(await screen.findByRole('button', { name: 'Remove tag FOMO' })).toBeInTheDocument();
  });

  it('applies filters and header sorts into the URL, clears them, and steps back with the back button', async () => {
    const api = fakeApi({ [HISTORY]: () => ({ body: tradePage([trade()]) }), [TAGS]: () => tagsBody() });
    const user = userEvent.setup();
    renderAt();
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(api.to(HISTORY).at(-1)!.search.get('sort')).toBe('openTime');
    expect(api.to(HISTORY).at(-1)!.search.get('order')).toBe('desc');

    fireEvent.change(screen.getByLabelText('Opened from'), { target: { value: '2025-09-01' } });
    await user.selectOptions(screen.getByLabelText('Side'), 'short');
    await user.click(screen.getByRole('textbox', { name: 'Filter by tag' }));
    await user.click(screen.getByRole('button', { name: 'Add tag Breakout (Setup)' }));
    await user.type(screen.getByLabelText('Search notes'), 'late entry');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));

    await waitFor(() => expect(api.to(HISTORY).at(-1)!.search.get('side')).toBe('short'));
    let last = api.to(HISTORY).at(-1)!.search;
    expect(last.get('from')).toBe(localStart('2025-09-01'));
    expect(last.getAll('tag')).toEqual(['t1']);
    expect(last.get('q')).toBe('late entry');
    expect(screen.getByLabelText('URL')).toHaveTextContent('?from=2025-09-01&side=short&tag=t1&q=late+entry');

    await user.click(screen.getByRole('button', { name: 'Sort by realized P/L' }));
    await waitFor(() => expect(api.to(HISTORY).at(-1)!.search.get('sort')).toBe('realizedPL'));
    last = api.to(HISTORY).at(-1)!.search;
    expect(last.get('order')).toBe('desc');
    expect(last.get('side')).toBe('short');
    expect(screen.getByLabelText('URL')).toHaveTextContent('sort=realizedPL&order=desc');

    // Back: the filters without the sort (that page is still cached); the form and the header follow the URL.
    await user.click(screen.getByRole('button', { name: 'Browser back' }));
    await waitFor(() =>
      expect(screen.getByLabelText('URL')).toHaveTextContent(/^\?from=2025-09-01&side=short&tag=t1&q=late\+entry$/),
    );
    expect(screen.getByRole('button', { name: 'Sort by realized P/L' }).closest('th')).toHaveAttribute(
      'aria-sort',
      'none',
    );
    expect(screen.getByLabelText('Side')).toHaveValue('short');

    // Clear: the whole list again (its first page is still cached, so it shows without a request).
    const before = api.to(HISTORY).length;
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(screen.getByLabelText('URL')).toBeEmptyDOMElement());
    const asked = api.to(HISTORY).slice(before);
    expect(asked.every((c) => c.search.get('side') === null)).toBe(true);
    expect(screen.getByLabelText('Side')).toHaveValue('');
  });

  it("opens on the Patterns screen's link with the pattern chosen, and sends a pattern picked in the filters", async () => {
    const api = fakeApi({ [HISTORY]: () => ({ body: tradePage([trade()]) }), [TAGS]: () => tagsBody() });
    const user = userEvent.setup();
    renderAt('?pattern=revenge_trading&from=2026-11-01');
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(api.to(HISTORY).at(-1)!.search.get('pattern')).toBe('revenge_trading');
    expect(screen.getByLabelText('Pattern')).toHaveValue('revenge_trading');
    expect(screen.getByRole('option', { name: 'Revenge trading' })).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Pattern'), 'Early exits');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(api.to(HISTORY).at(-1)!.search.get('pattern')).toBe('early_exit'));
    expect(screen.getByLabelText('URL')).toHaveTextContent('?from=2026-11-01&pattern=early_exit');
  });

  it('goes back to page 1 when the filters change', async () => {
    const api = fakeApi({
      [HISTORY]: ({ search }) => ({ body: tradePage([trade({ tradeId: `p${search.get('page')}` })], 3, 25) }),
      [TAGS]: () => tagsBody(),
    });
    const user = userEvent.setup();
    renderAt();
    await waitFor(() => expect(bodyRows()[0]).toHaveTextContent('p1'));
    await user.click(screen.getByText('Next'));
    await waitFor(() => expect(bodyRows()[0]).toHaveTextContent('p2'));
    await user.selectOptions(screen.getByLabelText('Outcome'), 'win');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(api.to(HISTORY).at(-1)!.search.get('outcome')).toBe('win'));
    const withFilter = api.to(HISTORY).filter((c) => c.search.get('outcome') === 'win');
    expect(withFilter.map((c) => c.search.get('page'))).toEqual(['1']);
  });

  it('refuses an inverted date range in place without asking the server', async () => {
    const api = fakeApi({ [HISTORY]: () => ({ body: tradePage([trade()]) }), [TAGS]: () => tagsBody() });
    renderAt();
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    fireEvent.change(screen.getByLabelText('Opened from'), { target: { value: '2025-10-10' } });
    fireEvent.change(screen.getByLabelText('Opened to'), { target: { value: '2025-10-01' } });
    expect(screen.getByRole('alert')).toHaveTextContent('The ‘from’ day is after the ‘to’ day');
    expect(screen.getByRole('button', { name: 'Apply filters' })).toBeDisabled();
    expect(api.to(HISTORY)).toHaveLength(1);
  });
});

describe('Trades list: journal columns and bulk tagging', () => {
  const tagged = (overrides: Partial<TradeListItem>) => ({ ...trade(), ...overrides });

  it('shows rating, tags and R, and tags the selected trades with one request', async () => {
    const rows = [
      tagged({
        tradeId: '1',
        rating: 4,
        tags: [{ id: 't1', name: 'Breakout', kind: 'setup' }],
        initialRisk: { stopLossPrice: '1.17000', distance: '0.00254', pips: 25.4 },
        rMultiple: 1.5,
      }),
      tagged({ tradeId: '2' }),
      tagged({ tradeId: '3', accountId: '101-004-27183640-002' }),
    ];
    const bulk = deferred<Reply>();
    const api = fakeApi({
      [HISTORY]: () => ({ body: { ...tradePage([]), data: rows } }),
      [TAGS]: () => tagsBody(),
      [`POST ${BULK}`]: () => bulk.promise,
    });
    const user = userEvent.setup();
    renderAt();
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    // The journal columns are behind their switch: the table starts with the spec's columns only.
    expect(screen.queryByRole('checkbox', { name: 'Select trade 1' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Journal columns' }));
    const [first, second] = bodyRows();
    expect(within(first!).getByRole('img', { name: 'Rated 4 of 5' })).toBeInTheDocument();
    expect(within(first!).getByText('Breakout')).toBeInTheDocument();
    expect(first).toHaveTextContent('+1.50R');
    expect(second).toHaveTextContent('no initial stop');

    await user.click(screen.getByRole('checkbox', { name: 'Select trade 1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select trade 3' }));
    expect(screen.getByText('2 trades selected')).toBeInTheDocument();
    const bar = screen.getByRole('region', { name: 'Tag selected trades' });
    expect(within(bar).getByRole('button', { name: 'Tag selected' })).toBeDisabled();
    await user.click(within(bar).getByRole('textbox', { name: 'Tags for the selected trades' }));
    await user.click(within(bar).getByRole('button', { name: 'Add tag Moved stop (Mistake)' }));
    await user.click(within(bar).getByRole('button', { name: 'Tag selected' }));
    expect(within(bar).getByRole('button', { name: 'Tag selected' })).toBeDisabled();

    expect(api.to(BULK, 'POST')[0]!.body).toEqual({
      trades: [
        { accountId: ACCOUNT, tradeId: '1' },
        { accountId: '101-004-27183640-002', tradeId: '3' },
      ],
      tagIds: ['t3'],
    });
    bulk.resolve({ body: { success: true, message: 'Tagged', data: { trades: 2, added: 2 } } });
    expect(await screen.findByText('Tagged 2 trades with 1 tag (2 new tags added).')).toBeInTheDocument();
    // The selection clears and the list is read again.
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Tag selected trades' })).not.toBeInTheDocument());
    await waitFor(() => expect(api.to(HISTORY).length).toBeGreaterThanOrEqual(2));
  });

  it("toasts the server's refusal and keeps the selection", async () => {
    fakeApi({
      [HISTORY]: () => ({ body: tradePage([trade()]) }),
      [TAGS]: () => tagsBody(),
      [`POST ${BULK}`]: () => ({
        status: 404,
        body: errorBody('Trade 101-004/5253 is not one of yours.', 'NOT_FOUND'),
      }),
    });
    const user = userEvent.setup();
    renderAt();
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    await user.click(screen.getByRole('checkbox', { name: 'Journal columns' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select all trades on this page' }));
    await user.click(screen.getByRole('textbox', { name: 'Tags for the selected trades' }));
    await user.click(screen.getByRole('button', { name: 'Add tag FOMO (Emotion)' }));
    await user.click(screen.getByRole('button', { name: 'Tag selected' }));
    expect(await screen.findByText('Trade 101-004/5253 is not one of yours.')).toBeInTheDocument();
    expect(screen.getByText('1 trade selected')).toBeInTheDocument();
  });
});

describe('Trade details: the journal', () => {
  const EVIL = 'Entered late.\n<script>window.hacked = true</script>\n\n<img src=x onerror="window.hacked = true">';

  it('loads the note, shows it as text, and saves note, rating and tags with feedback', async () => {
    let saved = { note: EVIL, rating: 2, tags: [TAG_LIST[1]!], updatedAt: '2025-10-03T10:00:00.000Z' };
    const api = fakeApi({
      [HISTORY]: () => ({ body: tradePage([trade()]) }),
      [TAGS]: () => tagsBody(),
      [`POST ${CREATE_TAG}`]: ({ body }) => ({
        body: { success: true, message: 'Tag created', data: tag('t9', String(body!.name), body!.kind as 'setup') },
      }),
      [`GET ${NOTE}`]: ({ params }) => ({
        body: tradeNoteResponse.parse({
          success: true,
          message: 'Note fetched',
          data: { accountId: params.accountId, tradeId: params.tradeId, ...saved },
        }),
      }),
      [`POST ${SAVE_NOTE}`]: ({ params, body }) => {
        const ids = body!.tagIds as string[];
        saved = {
          note: body!.note as string,
          rating: body!.rating as number,
          tags: ids.map((id) => (id === 't9' ? tag('t9', 'London open', 'setup') : TAG_LIST.find((t) => t.id === id)!)),
          updatedAt: '2025-10-04T12:00:00.000Z',
        };
        return {
          body: {
            success: true,
            message: 'Saved',
            data: { accountId: params.accountId, tradeId: params.tradeId, ...saved },
          },
        };
      },
    });
    const user = userEvent.setup();
    renderAt();
    await user.click(await screen.findByRole('button', { name: 'View Trade' }));
    const dialog = await findOpenDialog();
    const journal = within(dialog).getByRole('region', { name: 'Journal' });
    const note = await within(journal).findByLabelText('Note');
    expect(note).toHaveValue(EVIL);
    expect(api.to(NOTE_PATH, 'GET').length).toBeGreaterThanOrEqual(1);

    // Preview: the markup is shown as the text it is, never run or turned into elements.
    await user.click(within(journal).getByRole('button', { name: 'Preview' }));
    const preview = within(journal).getByLabelText('Note preview');
    expect(preview).toHaveTextContent('<script>window.hacked = true</script>');
    expect(preview).toHaveTextContent('<img src=x onerror="window.hacked = true">');
    expect(preview.querySelector('script, img')).toBeNull();
    expect(document.querySelector('img[onerror]')).toBeNull();
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
    await user.click(within(journal).getByRole('button', { name: 'Write' }));

    const textarea = within(journal).getByLabelText('Note');
    await user.clear(textarea);
    await user.type(textarea, 'Waited for the retest.');
    await user.click(within(journal).getByRole('radio', { name: '4 of 5' }));
    await user.click(within(journal).getByRole('button', { name: 'Remove tag FOMO' }));
    await user.click(within(journal).getByRole('textbox', { name: 'Trade tags' }));
    await user.click(within(journal).getByRole('button', { name: 'Add tag Breakout (Setup)' }));
    await user.type(within(journal).getByRole('textbox', { name: 'Trade tags' }), 'London open');
    await user.click(within(journal).getByRole('button', { name: 'Create “London open”' }));
    await waitFor(() => expect(api.to(CREATE_TAG, 'POST')).toHaveLength(1));
    expect(api.to(CREATE_TAG, 'POST')[0]!.body).toEqual({ name: 'London open', kind: 'setup' });
    expect(within(journal).getByText('Unsaved changes')).toBeInTheDocument();

    await user.click(within(journal).getByRole('button', { name: 'Save journal' }));
    expect(await screen.findByText('Journal saved for trade #5253.')).toBeInTheDocument();
    const [save] = api.to(`/api/v1/journal/update_trade_note/${ACCOUNT}/5253`, 'POST');
    expect(save!.body).toEqual({ note: 'Waited for the retest.', rating: 4, tagIds: ['t1', 't9'] });
    await waitFor(() => expect(within(journal).getByRole('status')).toHaveTextContent(/^Saved /));
    expect(within(journal).getByRole('button', { name: 'Save journal' })).toBeDisabled();
  });

  it("keeps the edit and toasts the server's message when the save is refused", async () => {
    fakeApi({
      [HISTORY]: () => ({ body: tradePage([trade()]) }),
      [TAGS]: () => tagsBody(),
      [`GET ${NOTE}`]: ({ params }) => ({
        body: {
          success: true,
          message: 'Note fetched',
          data: {
            accountId: params.accountId,
            tradeId: params.tradeId,
            note: '',
            rating: null,
            tags: [],
            updatedAt: null,
          },
        },
      }),
      [`POST ${SAVE_NOTE}`]: () => ({ status: 400, body: errorBody('rating must be a whole number from 1 to 5') }),
    });
    const user = userEvent.setup();
    renderAt();
    await user.click(await screen.findByRole('button', { name: 'View Trade' }));
    const dialog = await findOpenDialog();
    const journal = within(dialog).getByRole('region', { name: 'Journal' });
    expect(await within(journal).findByText('Nothing written yet')).toBeInTheDocument();
    await user.type(within(journal).getByLabelText('Note'), 'Chased it.');
    await user.click(within(journal).getByRole('button', { name: 'Save journal' }));
    expect(await screen.findByText('rating must be a whole number from 1 to 5')).toBeInTheDocument();
    expect(within(journal).getByLabelText('Note')).toHaveValue('Chased it.');
    expect(within(journal).getByText('Unsaved changes')).toBeInTheDocument();
  });

  it('shows the risk in R, MAE and MFE, and no initial stop / pending / not available', async () => {
    const rows: TradeListItem[] = [
      {
        ...trade({ tradeId: '1' }),
        note: '',
        rating: null,
        tags: [],
        initialRisk: { stopLossPrice: '1.17000', distance: '0.00254', pips: 25.4 },
        rMultiple: 0.48,
        mae: { price: '1.17100', pips: 15.4, r: 0.61 },
        mfe: { price: '1.17450', pips: 19.6, r: 0.77 },
        excursion: 'ready',
        ruleBreaks: [],
        playbookId: null,
        reviewed: false,
        followedAll: null,
        attachmentCount: 0,
      },
    ];
    fakeApi({ [HISTORY]: () => ({ body: { ...tradePage([]), data: rows } }), [TAGS]: () => tagsBody() });
    const user = userEvent.setup();
    renderAt();
    await user.click(await screen.findByRole('button', { name: 'View Trade' }));
    const dialog = await screen.findByRole('dialog');
    const risk = within(dialog).getByRole('region', { name: 'Risk' });
    const value = (label: string) => within(risk).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(value('Initial stop')).toBe('1.17000');
    expect(value('Risk')).toBe('0.00254 · 25.4 pips');
    expect(value('R-multiple')).toBe('+0.48R');
    expect(value('MAE (worst)')).toBe('1.17100 · 15.4 pips · -0.61R');
    expect(value('MFE (best)')).toBe('1.17450 · 19.6 pips · +0.77R');
  });
});

describe('Rule breaks', () => {
  it('filters by rule breaks from the URL and from the select, kept in the URL', async () => {
    const api = fakeApi({ [HISTORY]: () => ({ body: tradePage([trade()]) }), [TAGS]: () => tagsBody() });
    const user = userEvent.setup();
    renderAt('?ruleBreak=true');
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(api.to(HISTORY).at(-1)!.search.get('ruleBreak')).toBe('true');
    const select = screen.getByLabelText('Rule breaks');
    expect(select).toHaveValue('true');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All', 'Broke a rule', 'Kept the rules']);
    await user.selectOptions(select, 'Kept the rules');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(api.to(HISTORY).at(-1)!.search.get('ruleBreak')).toBe('false'));
    expect(screen.getByLabelText('URL')).toHaveTextContent('?ruleBreak=false');
    await user.selectOptions(screen.getByLabelText('Rule breaks'), 'All');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(screen.getByLabelText('URL')).toBeEmptyDOMElement());
    expect(api.to(HISTORY).at(-1)!.search.get('ruleBreak')).toBeNull();
  });

  it('names each rule a trade broke in Trade Details, with its limit and rule set; none for a trade that kept them', async () => {
    const broke: TradeListItem = {
      ...tradePage([trade({ tradeId: '1' })]).data[0]!,
      ruleBreaks: [
        {
          ruleSetId: 's1',
          ruleSetName: 'Personal rules',
          kind: 'max_trades_per_day',
          time: '2025-10-02T08:15:03.123Z',
          rule: { kind: 'max_trades_per_day', effect: 'fail', params: { max: 3 } },
        },
        {
          ruleSetId: 's1',
          ruleSetName: 'Personal rules',
          kind: 'max_risk_per_trade',
          time: '2025-10-02T08:15:03.123Z',
          rule: { kind: 'max_risk_per_trade', effect: 'fail', params: { pct: 1, basis: 'balance' } },
        },
      ],
    };
    const kept = tradePage([trade({ tradeId: '2' })]).data[0]!;
    fakeApi({
      [HISTORY]: () => ({ body: { ...tradePage([]), data: [broke, kept], total: 2 } }),
      [TAGS]: () => tagsBody(),
    });
    const user = userEvent.setup();
    renderAt();
    await user.click((await screen.findAllByRole('button', { name: 'View Trade' }))[0]!);
    const dialog = await screen.findByRole('dialog');
    const lines = within(dialog).getByRole('list', { name: 'Rule breaks' });
    expect(
      within(lines)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Rule broken: Trades per day (max 3) — Personal rules',
      'Rule broken: Risk per trade (max 1 % of the balance) — Personal rules',
    ]);
    await user.click(within(dialog).getAllByRole('button', { name: 'Close' })[0]!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getAllByRole('button', { name: 'View Trade' })[1]!);
    const second = await screen.findByRole('dialog');
    await within(second).findByText(/#2/);
    expect(within(second).queryByRole('list', { name: 'Rule breaks' })).not.toBeInTheDocument();
  });
});

describe('Export CSV', () => {
  it('downloads the filtered list with the bearer token, busy while it runs', async () => {
    const file = deferred<Reply>();
    const api = fakeApi({
      [HISTORY]: () => ({ body: tradePage([trade()]) }),
      [TAGS]: () => tagsBody(),
      [EXPORT]: () => file.promise,
    });
    const createObjectURL = vi.fn(() => 'blob:trades');
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const clicks: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(`${this.download} ${this.href}`);
    });
    const user = userEvent.setup();
    renderAt('?outcome=loss&tag=t2');
    await waitFor(() => expect(bodyRows()).toHaveLength(1));

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(screen.getByRole('button', { name: 'Exporting trades' })).toBeDisabled();
    const [call] = api.to(EXPORT);
    expect(call!.search.get('outcome')).toBe('loss');
    expect(call!.search.getAll('tag')).toEqual(['t2']);
    expect(call!.search.get('page')).toBeNull();
    expect(call!.headers.Authorization).toBe('Bearer test-token');

    file.resolve(
      new Response('tradeId,instrument\r\n5253,EUR_USD\r\n', {
        status: 200,
        headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="trades-2025-10.csv"' },
      }),
    );
    expect(await screen.findByText('Exported the filtered trades to trades-2025-10.csv.')).toBeInTheDocument();
    expect(clicks).toEqual(['trades-2025-10.csv blob:trades']);
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
    click.mockRestore();
  });

  it("toasts the server's message when the export fails", async () => {
    fakeApi({
      [HISTORY]: () => ({ body: tradePage([trade()]) }),
      [TAGS]: () => tagsBody(),
      [EXPORT]: () => ({ status: 400, body: errorBody('from must not be after to') }),
    });
    const user = userEvent.setup();
    renderAt();
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('from must not be after to')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  });
});
