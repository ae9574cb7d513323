import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { csvMappingResponse, IMPORT_MAX_BYTES, importConfirmResponse } from '@pipsense/contract';
import { deferred, errorBody, fakeApi, failure, ok, type Reply } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { queryKeys } from '../../../lib/query-keys';
import { CANCEL, CONFIRM, MAPPINGS, previewBody, reportFile, UPLOAD } from '../test/import-fixtures';
import { ImportPage } from './import-page';

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('test-token'));
});

const chooseFile = async (user: ReturnType<typeof userEvent.setup>, file: File) =>
  user.upload(screen.getByLabelText(/Choose (a|another) file/), file);
const readButton = () => screen.getByRole('button', { name: 'Read the report' });
const detail = (section: HTMLElement, label: string) =>
  within(section).getByText(label, { selector: 'dt' }).nextElementSibling as HTMLElement;

describe('ImportPage', () => {
  it('refuses a file over the limit in the browser, without sending anything', async () => {
    const api = fakeApi({ [UPLOAD]: () => ok(previewBody()) });
    const user = userEvent.setup();
    renderWithProviders(<ImportPage />);
    await chooseFile(user, reportFile('Statement.htm', 66_270_823));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Statement.htm is 63.2 MB; the limit is 50 MB. Export a shorter period',
    );
    expect(screen.getByText('Statement.htm')).toBeInTheDocument();
    expect(readButton()).toBeDisabled();
    await user.click(readButton());
    expect(api.calls).toHaveLength(0);

    // Exactly the limit is allowed.
    await chooseFile(user, reportFile('Statement.htm', IMPORT_MAX_BYTES));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(readButton()).toBeEnabled();
  });

  it('uploads with a progress bar and a disabled button, reads, then previews every part of the report', async () => {
    const answer = deferred<Reply>();
    const api = fakeApi({ [UPLOAD]: () => answer.promise });
    const user = userEvent.setup();
    renderWithProviders(<ImportPage />);
    // No rule chosen: the account's remembered one, else the server's default.
    expect(screen.getByLabelText('Broker server time')).toHaveValue('');
    expect(screen.queryByLabelText('Fixed UTC offset')).not.toBeInTheDocument();
    expect(screen.getByText(/Most MetaTrader brokers run at UTC\+2, UTC\+3 in summer/)).toBeInTheDocument();
    await chooseFile(user, reportFile('Statement.htm', 2_000_000));
    expect(screen.getByText('1.9 MB', { exact: false })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Broker server time'), 'fixed');
    expect(screen.getByLabelText('Fixed UTC offset')).toHaveValue('+02:00');
    await user.selectOptions(screen.getByLabelText('Fixed UTC offset'), '+03:00');

    const release = api.holdUploads();
    await user.click(readButton());
    const bar = await screen.findByRole('progressbar', { name: 'Uploading Statement.htm' });
    // Held at half the form's bytes (fake-api): 16 of 33 ('fixed', '+03:00' and the file's 22).
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '48'));
    expect(readButton()).toBeDisabled();
    release();
    expect(await screen.findByText('Reading the report…')).toBeInTheDocument();
    expect(readButton()).toBeDisabled();

    const [call] = api.to('/api/v1/import/upload');
    expect(call!.headers.Authorization).toBe('Bearer test-token');
    expect(call!.form!.get('serverUtcOffset')).toBe('+03:00');
    expect(call!.form!.has('mappingId')).toBe(false);
    expect((call!.form!.get('file') as File).name).toBe('Statement.htm');
    expect(call!.form!.get('brokerTime')).toBe('fixed');
    expect([...call!.form!.keys()]).toEqual(['brokerTime', 'serverUtcOffset', 'file']);

    answer.resolve(ok(previewBody()));
    const account = await screen.findByRole('region', { name: 'Account' });
    expect(screen.getByText('MetaTrader 4 Detailed Statement (HTML)')).toBeInTheDocument();
    expect(detail(account, 'Account number')).toHaveTextContent('51234567');
    // Markup in a report is text, never HTML.
    expect(detail(account, 'Name')).toHaveTextContent('Jane <b>Trader</b>');
    expect(detail(account, 'Name').querySelector('b')).toBeNull();
    expect(detail(account, 'Broker')).toHaveTextContent('Raw Trading Ltd');
    expect(detail(account, 'Server')).toHaveTextContent('ICMarketsSC-Demo');
    expect(detail(account, 'Currency')).toHaveTextContent('USD');
    expect(detail(account, 'Leverage')).toHaveTextContent('1:500');

    const report = screen.getByRole('region', { name: 'Report' });
    expect(detail(report, 'Closed trades')).toHaveTextContent('12');
    expect(detail(report, 'Open trades')).toHaveTextContent('2');
    expect(detail(report, 'Balance operations')).toHaveTextContent('3');
    expect(detail(report, 'Rows skipped')).toHaveTextContent('2');
    expect(within(report).getByRole('list', { name: 'Skipped rows' })).toHaveTextContent(
      'Row 41: cancelled order (buy limit)Row 57: unknown type "credit in"',
    );
    const local = (iso: string) =>
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(Date.parse(iso));
    expect(detail(report, 'From')).toHaveTextContent(local('2025-10-01T06:00:00Z'));
    expect(detail(report, 'To')).toHaveTextContent(local('2025-10-31T20:30:00Z'));
    expect(detail(report, 'Net P/L')).toHaveTextContent("1,234.56 ⚠ differs from the report's 1,234.50 by 0.06");
    expect(detail(report, 'Server time')).toHaveTextContent('UTC+03:00');

    const sizes = screen.getByRole('table', { name: 'Contract sizes' });
    const us30 = within(sizes).getByRole('textbox', { name: 'Units per lot of US30' });
    expect(us30).toHaveValue('1');
    expect(us30.closest('tr')).toHaveClass('table-warning');
    expect(within(sizes).getByRole('textbox', { name: 'Units per lot of EURUSD.m' }).closest('tr')).not.toHaveClass(
      'table-warning',
    );

    expect(screen.getByRole('group', { name: 'Is this a demo or a live account?' })).toBeInTheDocument();
    const sample = screen.getByRole('table', { name: 'Sample trades' });
    const rows = within(sample).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(/50123456EURUSD\.mSell0\.10.*1\.17010.*1\.16810.*1\.17500.*-0\.700\.0020\.00/);
    expect(rows[1]).toHaveTextContent(/50123499US30Buy1\.00.*42100\.5/);
    // Confirm waits for the Demo/Live answer.
    expect(screen.getByRole('button', { name: 'Confirm import' })).toBeDisabled();
  });

  it("shows why the report's total differs and what the reader had to assume", async () => {
    fakeApi({
      [UPLOAD]: () =>
        ok(
          previewBody({
            reportTotalExplained: "The report's total (1234.50) also counts the commission of position 70100452.",
            warnings: ['Positions: the column "Echange" was not recognised; read as Swap by its place.'],
          }),
        ),
    });
    const user = userEvent.setup();
    renderWithProviders(<ImportPage />);
    await chooseFile(user, reportFile('a.htm'));
    await user.click(readButton());
    const report = await screen.findByRole('region', { name: 'Report' });
    expect(within(report).getByLabelText('Why the totals differ')).toHaveTextContent(
      "The report's total (1234.50) also counts the commission of position 70100452.",
    );
    expect(within(report).getByLabelText('What PipSense assumed')).toHaveTextContent(
      'Positions: the column "Echange" was not recognised; read as Swap by its place.',
    );
  });

  it('says when the net P/L matches the report, or that the report gives no total', async () => {
    fakeApi({ [UPLOAD]: () => ok(previewBody({ reportNetProfit: '1234.560' })) });
    const user = userEvent.setup();
    renderWithProviders(<ImportPage />);
    await chooseFile(user, reportFile('a.htm'));
    await user.click(readButton());
    const report = await screen.findByRole('region', { name: 'Report' });
    expect(detail(report, 'Net P/L')).toHaveTextContent("1,234.56 ✓ matches the report's total");
  });

  it('confirms with the mode and only the changed contract sizes, shows the summary and refreshes the lists', async () => {
    const api = fakeApi({
      [UPLOAD]: () => ok(previewBody()),
      [CONFIRM]: () =>
        ok(
          importConfirmResponse.parse({
            success: true,
            message: 'MetaTrader is now your default trading platform.',
            added: 10,
            updated: 2,
            unchanged: 0,
            balanceOperationsAdded: 0,
            accountId: 'metatrader:ICMarketsSC-Demo:51234567',
          }),
        ),
    });
    const user = userEvent.setup();
    const { client } = renderWithProviders(<ImportPage />);
    client.setQueryData(queryKeys.info, { data: {}, providers: {} });
    client.setQueryData(queryKeys.tradeHistory.page('', 1), { data: [] });
    await chooseFile(user, reportFile('Statement.htm'));
    await user.click(readButton());
    const us30 = await screen.findByRole('textbox', { name: 'Units per lot of US30' });
    await user.clear(us30);
    await user.type(us30, '0');
    expect(await screen.findByText('A contract size must be above 0.')).toBeInTheDocument();
    await user.clear(us30);
    await user.type(us30, '10');
    await user.click(screen.getByRole('radio', { name: 'Live' }));
    await user.click(screen.getByRole('button', { name: 'Confirm import' }));

    expect(await screen.findByText('Imported 12 trades: 10 added, 2 updated, 0 unchanged')).toBeInTheDocument();
    const [confirm] = api.to('/api/v1/import/confirm/imp-7');
    expect(confirm!.body).toEqual({ mode: 'live', contractSizes: { US30: '10' } });
    expect(screen.getByRole('link', { name: 'See the trades' })).toHaveAttribute('href', '/trades/all_trades');
    expect(screen.getByRole('link', { name: 'Open the Overview' })).toHaveAttribute('href', '/overview');
    expect(client.getQueryState(queryKeys.info)!.isInvalidated).toBe(true);
    expect(client.getQueryState(queryKeys.tradeHistory.page('', 1))!.isInvalidated).toBe(true);
  });

  it('cancels: the server drops the preview, nothing is confirmed, and the file can be read again', async () => {
    const api = fakeApi({
      [UPLOAD]: () =>
        ok(
          previewBody({
            account: { ...previewBody().preview.account, mode: 'demo' },
            brokerTime: 'ny-close-us',
            serverUtcOffset: null,
            serverUtcOffsets: ['+02:00', '+03:00'],
          }),
        ),
      [CANCEL]: () => ok({ success: true, message: 'Import cancelled.' }),
    });
    const user = userEvent.setup();
    renderWithProviders(<ImportPage />);
    await chooseFile(user, reportFile('Statement.htm'));
    await user.click(readButton());
    const account = await screen.findByRole('region', { name: 'Account' });
    expect(api.to('/api/v1/import/upload')[0]!.form!.has('brokerTime')).toBe(false);
    expect(detail(account, 'Mode')).toHaveTextContent('Demo');
    expect(detail(screen.getByRole('region', { name: 'Report' }), 'Server time')).toHaveTextContent(
      'UTC+2, UTC+3 while New York is on summer time (most brokers): UTC+02:00 and UTC+03:00 in this report',
    );
    expect(screen.queryByRole('group', { name: 'Is this a demo or a live account?' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    expect(await screen.findByText('Import cancelled: nothing was stored.')).toBeInTheDocument();
    expect(api.to('/api/v1/import/cancel/imp-7', 'POST')).toHaveLength(1);
    expect(api.to(/\/confirm\//)).toHaveLength(0);
    expect(screen.getByText('Statement.htm')).toBeInTheDocument();
    expect(readButton()).toBeEnabled();
    // The rule the preview used is the one offered for reading the file again; another can be picked.
    expect(screen.getByLabelText('Broker server time')).toHaveValue('ny-close-us');
    await user.selectOptions(screen.getByLabelText('Broker server time'), 'ny-close-eu');
    await user.click(readButton());
    await screen.findByRole('region', { name: 'Account' });
    const again = api.to('/api/v1/import/upload')[1]!.form!;
    expect(again.get('brokerTime')).toBe('ny-close-eu');
    expect(again.has('serverUtcOffset')).toBe(false);
  });

  it('asks for the CSV columns on MISSING_COLUMN, shows the server’s validation, saves the mapping and reads again with it', async () => {
    let uploads = 0;
    let mappingTries = 0;
    const api = fakeApi({
      [UPLOAD]: () =>
        ++uploads === 1
          ? {
              status: 400,
              body: {
                ...errorBody('The CSV has no Close time or Profit column: map its columns.', 'MISSING_COLUMN'),
                details: {
                  columns: ['Ticket', 'Opened', 'Symbol', 'Type', 'Lots', 'Entry', 'Exit', 'Closed', 'Net'],
                  missing: ['closeTime', 'profit'],
                },
              },
            }
          : ok(previewBody()),
      [`POST ${MAPPINGS}`]: ({ body }) =>
        ++mappingTries === 1
          ? failure(400, 'Map every required column: Close time.', 'VALIDATION')
          : ok(
              csvMappingResponse.parse({
                success: true,
                message: 'Mapping saved.',
                data: { ...body, id: 'map-1', createdAt: '2025-11-01T00:00:00Z', updatedAt: '2025-11-01T00:00:00Z' },
              }),
            ),
      [`GET ${MAPPINGS}`]: () => ok({ success: true, message: 'Mappings', data: [] }),
    });
    const user = userEvent.setup();
    renderWithProviders(<ImportPage />);
    await chooseFile(user, reportFile('journal.csv', undefined, 'text/csv'));
    await user.click(readButton());

    expect(await screen.findByRole('alert')).toHaveTextContent('The CSV has no Close time or Profit column');
    expect(screen.getByText(/could not find Close time, Profit \/ P&L in this CSV/)).toBeInTheDocument();
    // Guessed from the headers.
    expect(screen.getByLabelText(/^Ticket \/ trade id/)).toHaveValue('Ticket');
    expect(screen.getByLabelText(/^Open time/)).toHaveValue('Opened');
    expect(screen.getByLabelText(/^Symbol/)).toHaveValue('Symbol');
    expect(screen.getByLabelText(/^Side/)).toHaveValue('Type');
    expect(screen.getByLabelText(/^Volume/)).toHaveValue('Lots');
    expect(screen.getByLabelText(/^Open price/)).toHaveValue('Entry');
    expect(screen.getByLabelText(/^Close price/)).toHaveValue('Exit');
    expect(screen.getByLabelText(/^Close time/)).toHaveValue('Closed');
    await user.selectOptions(screen.getByLabelText(/^Close time/), '');
    await user.selectOptions(screen.getByLabelText(/^Profit/), 'Net');
    await user.selectOptions(screen.getByLabelText('Date order'), 'dmy');
    await user.selectOptions(screen.getByLabelText('Decimal separator'), ',');
    await user.click(screen.getByLabelText(/times in this file are UTC/));
    await user.clear(screen.getByLabelText('Mapping name'));
    await user.type(screen.getByLabelText('Mapping name'), 'My journal');
    await user.click(screen.getByRole('button', { name: 'Save mapping and read again' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Map every required column: Close time.');

    await user.selectOptions(screen.getByLabelText(/^Close time/), 'Closed');
    await user.click(screen.getByRole('button', { name: 'Save mapping and read again' }));
    await screen.findByRole('region', { name: 'Account' });

    const saved = api.to(MAPPINGS, 'POST');
    expect(saved).toHaveLength(2);
    expect(saved[1]!.body).toEqual({
      name: 'My journal',
      columns: {
        ticket: 'Ticket',
        openTime: 'Opened',
        closeTime: 'Closed',
        symbol: 'Symbol',
        side: 'Type',
        volume: 'Lots',
        openPrice: 'Entry',
        closePrice: 'Exit',
        profit: 'Net',
      },
      dateOrder: 'dmy',
      decimalSeparator: ',',
      timesAreUtc: true,
    });
    const uploadsSent = api.to('/api/v1/import/upload');
    expect(uploadsSent).toHaveLength(2);
    expect(uploadsSent[1]!.form!.get('mappingId')).toBe('map-1');
    expect((uploadsSent[1]!.form!.get('file') as File).name).toBe('journal.csv');
  });

  it('offers the saved mappings for a CSV and sends the one chosen', async () => {
    const api = fakeApi({
      [UPLOAD]: () => ok(previewBody({})),
      [`GET ${MAPPINGS}`]: () =>
        ok({
          success: true,
          message: 'Mappings',
          data: [
            {
              id: 'map-9',
              name: 'Broker back office',
              columns: {},
              dateOrder: 'ymd',
              decimalSeparator: '.',
              timesAreUtc: true,
              createdAt: '2025-11-01T00:00:00Z',
              updatedAt: '2025-11-01T00:00:00Z',
            },
          ],
        }),
    });
    const user = userEvent.setup();
    renderWithProviders(<ImportPage />);
    await chooseFile(user, reportFile('Statement.htm'));
    expect(screen.queryByLabelText('CSV column mapping')).not.toBeInTheDocument();
    expect(api.to(MAPPINGS)).toHaveLength(0);
    await chooseFile(user, reportFile('export.csv', undefined, 'text/csv'));
    await user.selectOptions(await screen.findByLabelText('CSV column mapping'), 'map-9');
    await user.click(readButton());
    await screen.findByRole('region', { name: 'Account' });
    expect(api.to('/api/v1/import/upload')[0]!.form!.get('mappingId')).toBe('map-9');
  });

  it.each([
    [413, 'The file is larger than 50 MB.', 'FILE_TOO_LARGE'],
    [409, 'Another upload of yours is still being read: wait for it to finish.', 'IMPORT_BUSY'],
    [400, 'This HTML is not a MetaTrader report (no <table> of deals).', 'UNKNOWN_FORMAT'],
  ])('shows the server’s message as text on %i', async (status, message, code) => {
    fakeApi({ [UPLOAD]: () => failure(status, message, code) });
    const user = userEvent.setup();
    renderWithProviders(<ImportPage />);
    await chooseFile(user, reportFile('Statement.htm'));
    await user.click(readButton());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(message);
    expect(alert.querySelector('table')).toBeNull();
    expect(readButton()).toBeEnabled();
  });

  it('goes back to the file when the preview has vanished (410) on confirm, with the server’s message', async () => {
    fakeApi({
      [UPLOAD]: () => ok(previewBody({ account: { ...previewBody().preview.account, mode: 'live' } })),
      [CONFIRM]: () =>
        failure(410, 'This preview expired after 60 minutes: upload the report again.', 'IMPORT_EXPIRED'),
    });
    const user = userEvent.setup();
    renderWithProviders(<ImportPage />);
    await chooseFile(user, reportFile('Statement.htm'));
    await user.click(readButton());
    await user.click(await screen.findByRole('button', { name: 'Confirm import' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This preview expired after 60 minutes');
    expect(screen.queryByRole('region', { name: 'Account' })).not.toBeInTheDocument();
    expect(readButton()).toBeEnabled();
  });
});
