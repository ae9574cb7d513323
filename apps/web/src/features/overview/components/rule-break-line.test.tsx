import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { RuleBreakLine } from './rule-break-line';

describe('RuleBreakLine', () => {
  it('says how many trades broke a rule and their net P/L, signed, grouped and exact, with the currency', () => {
    render(<RuleBreakLine ruleBreaks={{ trades: 2, netPL: [{ currency: 'USD', amount: '1000.1000' }] }} />);
    const line = screen.getByRole('region', { name: 'Rule breaks' });
    expect(line).toHaveTextContent('Rule breaks: 2 trades, net P/L +1,000.10 USD');
    expect(within(line).getByText('+1,000.10 USD')).toHaveClass('text-success');
  });

  it('lists one amount per currency side by side, never added', () => {
    render(
      <RuleBreakLine
        ruleBreaks={{
          trades: 1,
          netPL: [
            { currency: 'JPY', amount: '-45000.0000' },
            { currency: 'USD', amount: '12.5000' },
          ],
        }}
      />,
    );
    expect(screen.getByRole('region', { name: 'Rule breaks' })).toHaveTextContent(
      'Rule breaks: 1 trade, net P/L -45,000.00 JPY · +12.50 USD',
    );
    expect(screen.getByText('-45,000.00 JPY')).toHaveClass('text-danger');
  });

  it('says no trade broke a rule when none in view did, and shows nothing without trade-level rules', () => {
    const { rerender } = render(<RuleBreakLine ruleBreaks={{ trades: 0, netPL: [] }} />);
    expect(screen.getByRole('region', { name: 'Rule breaks' })).toHaveTextContent('Rule breaks: no trade broke a rule');
    rerender(<RuleBreakLine ruleBreaks={null} />);
    expect(screen.queryByRole('region', { name: 'Rule breaks' })).not.toBeInTheDocument();
    rerender(<RuleBreakLine ruleBreaks={undefined} />);
    expect(screen.queryByRole('region', { name: 'Rule breaks' })).not.toBeInTheDocument();
  });
});
