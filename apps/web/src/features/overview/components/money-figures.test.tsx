import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { DashboardMetrics } from '@pipsense/contract';
import { tradedMetrics } from '../test/overview-fixtures';
import { MoneyFigures } from './money-figures';

/* The Overview's money of several currencies (docs/decisions/024-currencies-never-mixed.md). */

function withCurrency(
  currency: DashboardMetrics['currency'],
  money: DashboardMetrics['money'],
  returns?: DashboardMetrics['returns'],
): DashboardMetrics {
  return { ...tradedMetrics(), currency, money, returns };
}

const RETURN = 'Return (time-weighted)';

const none = { grossProfit: null, grossLoss: null, financing: null };

describe('MoneyFigures', () => {
  it('lists each currency with its code side by side when no rate converts them', () => {
    const listed = (byCurrency: Array<[string, string]>) => ({
      mode: 'listed' as const,
      byCurrency: byCurrency.map(([currency, amount]) => ({ currency, amount })),
    });
    render(
      <MoneyFigures
        metrics={withCurrency(
          {
            mode: 'listed',
            home: 'USD',
            currencies: ['JPY', 'USD'],
            chartsCurrency: 'USD',
            note: 'No exchange rates to convert JPY into USD: money is shown per currency.',
          },
          {
            ...none,
            netPL: listed([
              ['JPY', '-382286.63'],
              ['USD', '1200.50'],
            ]),
            netPLAfterFinancing: null,
            maxDrawdown: listed([['JPY', '382286.63']]),
            unrealizedPL: null,
          },
        )}
      />,
    );
    const region = screen.getByRole('region', { name: 'Money per currency' });
    const net = within(region).getByText('Net P/L').parentElement!;
    expect([...net.querySelectorAll('.overview-money-part')].map((e) => e.textContent)).toEqual([
      '-382,286.63 JPY',
      '1,200.50 USD',
    ]);
    expect(region.textContent).not.toContain('-381,086.13');
    expect(within(region).getByText(/No exchange rates/)).toBeVisible();
  });

  it('shows one converted figure with the home currency code', () => {
    const usd = (amount: string) => ({ mode: 'converted' as const, currency: 'USD', amount, from: ['JPY', 'USD'] });
    render(
      <MoneyFigures
        metrics={withCurrency(
          { mode: 'converted', home: 'USD', currencies: ['JPY', 'USD'], chartsCurrency: 'USD', note: null },
          {
            ...none,
            netPL: usd('-1359.38'),
            netPLAfterFinancing: usd('-1360.88'),
            maxDrawdown: usd('2259.88'),
            unrealizedPL: usd('0.00'),
          },
        )}
      />,
    );
    const region = screen.getByRole('region', { name: 'Money in USD' });
    expect(within(region).getByText('-1,359.38 USD')).toHaveClass('text-danger');
    // A drawdown is a size, not a gain: not coloured.
    expect(within(region).getByText('2,259.88 USD')).not.toHaveClass('text-success');
  });

  it('shows the return of each currency beside the money, with its code and sign', () => {
    const usd = (amount: string) => ({ mode: 'converted' as const, currency: 'USD', amount, from: ['JPY', 'USD'] });
    render(
      <MoneyFigures
        metrics={withCurrency(
          { mode: 'converted', home: 'USD', currencies: ['JPY', 'USD'], chartsCurrency: 'USD', note: null },
          { ...none, netPL: usd('-1359.38'), netPLAfterFinancing: null, maxDrawdown: null, unrealizedPL: null },
          [
            { currency: 'JPY', total: '-1.2000', accounts: 1 },
            { currency: 'USD', total: '8.0450', accounts: 2 },
          ],
        )}
      />,
    );
    const region = screen.getByRole('region', { name: 'Money in USD' });
    const figure = within(region).getByRole('group', { name: RETURN });
    const parts = [...figure.querySelectorAll('.overview-money-part')];
    // Never converted: an exchange move is not performance.
    expect(parts.map((e) => e.textContent)).toEqual(['-1.20 % JPY', '+8.05 % USD']);
    expect(parts[0]).toHaveClass('text-danger');
    expect(parts[1]).toHaveClass('text-success');
    expect(within(region).getByText(/The return stays per currency/)).toBeVisible();
  });

  /** One currency's overview with these returns. */
  const oneCurrency = (returns?: DashboardMetrics['returns']) =>
    withCurrency(
      { mode: 'single', home: 'USD', currencies: ['USD'], chartsCurrency: 'USD', note: null },
      {
        ...none,
        netPL: { mode: 'single', currency: 'USD', amount: '10.00' },
        netPLAfterFinancing: null,
        maxDrawdown: null,
        unrealizedPL: null,
      },
      returns,
    );

  it('shows the return alone, without a code, for one currency', () => {
    render(<MoneyFigures metrics={oneCurrency([{ currency: 'USD', total: '8.0450', accounts: 2 }])} />);
    const figure = screen.getByRole('group', { name: RETURN });
    expect(figure).toHaveTextContent('+8.05 %');
    expect(figure).not.toHaveTextContent('USD');
    expect(screen.queryByText('Net P/L')).toBeNull();
  });

  it.each([
    ['without a return', undefined],
    ['in a view sliced by instrument or tag (no return)', null],
    ['without bookings', []],
  ])('shows nothing for one currency %s: the cards carry its code as before', (_, returns) => {
    const { container } = render(<MoneyFigures metrics={oneCurrency(returns)} />);
    expect(container).toBeEmptyDOMElement();
  });
});
