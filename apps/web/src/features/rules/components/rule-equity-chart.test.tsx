import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { RuleLine } from '@pipsense/contract';
import { toLocalTimes } from '../../../components/charts/local-times';
import { fakeApi, failure, ok, type Route } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { day, daysBody, GET_DAYS, GET_HISTORY, historyBody, point, ruleSet } from '../../../test/rules-fixtures';
import { RuleEquityChart } from './rule-equity-chart';
import { charts, resetCharts } from '../../../test/lightweight-charts-fake';

vi.mock('lightweight-charts', () => import('../../../test/lightweight-charts-fake'));

const line = (kind: RuleLine['kind'], fields: Partial<RuleLine>): RuleLine =>
  ({
    kind,
    unit: 'money',
    limit: null,
    used: null,
    remaining: null,
    percentUsed: null,
    floor: null,
    ok: true,
    ...fields,
  }) as RuleLine;

/** Two days of an FTMO challenge started 2 Nov 2026 08:00Z (days reset at 23:00Z): the second has no daily floor. */
const DAYS = [
  day({
    date: '2026-11-02',
    start: '2026-11-01T23:00:00.000Z',
    end: '2026-11-02T23:00:00.000Z',
    floor: '95000.0000',
    lowestEquity: '98750.5000',
    lines: [line('max_loss', { floor: '90000.0000' }), line('profit_target', { limit: '10000.0000' })],
  }),
  day({
    date: '2026-11-03',
    start: '2026-11-02T23:00:00.000Z',
    end: '2026-11-03T23:00:00.000Z',
    floor: null,
    lowestEquity: null,
    lines: [line('max_loss', { floor: '90000.0000' }), line('profit_target', { limit: '10000.0000' })],
  }),
];
const NOW = '2026-11-03T12:00:00.000Z';
const at = (iso: string) => Date.parse(iso) / 1000;
const series = (title: string) => charts.series.find((s) => s.title === title);

function serve(history: Route) {
  return fakeApi({ [GET_DAYS]: () => ok(daysBody(DAYS)), [GET_HISTORY]: history });
}

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('test-token'));
  resetCharts();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.parse(NOW));
});
afterEach(() => vi.useRealTimers());

describe('RuleEquityChart', () => {
  it('draws the balance, the equity, both floors as day steps and the target, from the set’s start', async () => {
    const api = serve(() =>
      ok(
        historyBody([
          point('2026-11-02T09:00:00Z', '100000.0000', '100000.0000'),
          point('2026-11-02T10:00:00Z', '99250.5000', '98750.5000'),
          point('2026-11-03T11:00:00Z', '101200.5000', '101150.2500'),
        ]),
      ),
    );
    renderWithProviders(<RuleEquityChart ruleSet={ruleSet()} currency="USD" />);
    const figure = await screen.findByRole('figure', { name: 'Equity and floors of FTMO challenge' });

    const asked = api.to(/get_balance_history/)[0]!;
    expect(asked.path).toBe('/api/v1/money/get_balance_history/mt5-5100231');
    expect(Object.fromEntries(asked.search)).toEqual({ resolution: 'hour', from: '2026-11-02T08:00:00.000Z' });

    expect(charts.series.map((s) => s.title)).toEqual([
      'Equity',
      'Balance',
      'Daily loss floor',
      'Maximum loss floor',
      'Profit target',
    ]);
    const local = (steps: [string, number, string?][]) =>
      toLocalTimes(steps.map(([iso, value, color]) => ({ time: at(iso), value, ...(color ? { color } : {}) })));
    expect(series('Daily loss floor')!.data).toEqual(
      // The second day has no floor: the step ends at its reset and nothing is drawn after.
      local([
        ['2026-11-01T23:00:00Z', 95000],
        ['2026-11-02T23:00:00Z', 95000, 'transparent'],
      ]),
    );
    expect(series('Maximum loss floor')!.data).toEqual(
      local([
        ['2026-11-01T23:00:00Z', 90000],
        ['2026-11-02T23:00:00Z', 90000],
        [NOW, 90000],
      ]),
    );
    expect(series('Profit target')!.data).toEqual(
      local([
        ['2026-11-01T23:00:00Z', 110000],
        [NOW, 110000],
      ]),
    );
    expect(series('Profit target')!.options).toMatchObject({ lineType: 1, lineStyle: 2 });
    expect(series('Balance')!.data.map((p) => p.value)).toEqual([100000, 99250.5, 101200.5]);

    expect(figure).toHaveTextContent('BalanceEquityDaily loss floorMaximum loss floorProfit target');
    expect(within(figure).getByText(/^Balance 101,200.50 USD/)).toHaveTextContent(
      'Balance 101,200.50 USD, equity 101,150.25 USD, lowest equity 98,750.50 USD on 2026-11-02, ' +
        'maximum loss floor 90,000.00 USD, profit target 110,000.00 USD.',
    );
  });

  it('draws the balance alone and says so where equity is unknown (an import without candles)', async () => {
    serve(() =>
      ok(historyBody([point('2026-11-02T09:00:00Z', '100000', null), point('2026-11-03T11:00:00Z', '99000', null)])),
    );
    renderWithProviders(<RuleEquityChart ruleSet={ruleSet()} currency="USD" />);
    const figure = await screen.findByRole('figure', { name: 'Equity and floors of FTMO challenge' });
    expect(charts.series.map((s) => s.title)).toEqual([
      'Balance',
      'Daily loss floor',
      'Maximum loss floor',
      'Profit target',
    ]);
    expect(within(figure).getByText('Equity unknown (closed P/L only)')).toBeInTheDocument();
    expect(figure).toHaveTextContent('Balance 99,000.00 USD, equity unknown (closed P/L only)');
  });

  it('says when the history cannot be loaded', async () => {
    serve(() => failure(500, 'The money service is down'));
    renderWithProviders(<RuleEquityChart ruleSet={ruleSet()} currency="USD" />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The equity chart could not be loaded: The money service is down',
    );
    expect(charts.series).toEqual([]);
  });
});
