import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MetricValue } from './metric-value';

const pairsOf = (list: HTMLElement) =>
  Array.from(list.querySelectorAll('.metric-pair')).map((pair) => [
    pair.querySelector('dt')!.textContent,
    pair.querySelector('dd')!.textContent,
  ]);

describe('MetricValue', () => {
  it('renders a plain value as text', () => {
    const { container } = render(<MetricValue value="3h 12m" />);
    expect(container.textContent).toBe('3h 12m');
    expect(container.querySelector('dl, ul')).toBeNull();
  });

  it("renders '-' for each kind of empty value", () => {
    for (const value of [null, '', [], {}]) {
      const { container, unmount } = render(<MetricValue value={value} />);
      expect(container.textContent).toBe('-');
      unmount();
    }
  });

  it('renders a key/value object as a description list in its key order', () => {
    const { container } = render(<MetricValue value={{ 'Net P/L': '95.00 USD', 'Profit Factor': '-' }} />);
    const list = container.querySelector('dl')!;
    expect(pairsOf(list)).toEqual([
      ['Net P/L', '95.00 USD'],
      ['Profit Factor', '-'],
    ]);
    expect(list).toHaveClass('metric-pairs-inline');
  });

  it('stacks labels above sentences when asked', () => {
    const { container } = render(<MetricValue value={{ Focus: 'EUR_USD carried the result.' }} layout="stacked" />);
    expect(container.querySelector('dl')).toHaveClass('metric-pairs-stacked');
  });

  it('renders an array as a list of items', () => {
    render(<MetricValue value={['Set a stop-loss', 'Trade fewer Fridays']} />);
    const items = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(['Set a stop-loss', 'Trade fewer Fridays']);
  });

  it('renders a nested object as one labelled key/value list per key', () => {
    render(
      <MetricValue
        value={{ EUR_USD: { Trades: '5 (4 closed)', 'Win Rate': '75.0%' }, USD_JPY: { Trades: '2 (2 closed)' } }}
        groupLabel={(key) => key.replace('_', '/')}
      />,
    );
    const eur = screen.getByRole('region', { name: 'EUR/USD' });
    expect(within(eur).getByRole('heading', { name: 'EUR/USD' })).toBeInTheDocument();
    expect(pairsOf(eur)).toEqual([
      ['Trades', '5 (4 closed)'],
      ['Win Rate', '75.0%'],
    ]);
    expect(pairsOf(screen.getByRole('region', { name: 'USD/JPY' }))).toEqual([['Trades', '2 (2 closed)']]);
  });
});
