import { describe, expect, it } from 'vitest';
import { accountItem } from '@pipsense/contract';
import { account } from '../test-fixtures';
import { accountDetails, accountIdOf, HIDDEN_ACCOUNT_FIELDS } from './account-fields';

describe('accountDetails', () => {
  it('lists one labelled entry for every account field except id, userId and version (docs/PRODUCT.md, Account list)', () => {
    const fields = Object.keys(accountItem.shape);
    const details = accountDetails(account());
    expect(details).toHaveLength(fields.length - HIDDEN_ACCOUNT_FIELDS.length);
    expect(details.map((d) => d.label)).toEqual(expect.arrayContaining(['Platform', 'Login', 'Server', 'Broker']));
    expect(new Set(details.map((d) => d.label)).size).toBe(details.length);
    expect(details.map((d) => d.label)).not.toEqual(expect.arrayContaining(['Id', 'ID', 'User ID', 'Version']));
  });

  it('formats money, P/L, flags and counts', () => {
    const byLabel = Object.fromEntries(accountDetails(account()).map((d) => [d.label, d]));
    expect(byLabel.Balance!.value).toBe('100234.57');
    expect(byLabel.NAV!.value).toBe('100199.99');
    expect(byLabel['Unrealized P/L']!.value).toBe('-34.5736');
    expect(byLabel['Unrealized P/L']!.className).toBe('text-danger');
    expect(byLabel['Realized P/L']!.className).toBe('text-success');
    expect(byLabel['Margin Rate']!.value).toBe('0.02');
    expect(byLabel['Hedging Enabled']!.value).toBe('No');
    expect(byLabel['Pending Orders']!.value).toBe('14');
    expect(byLabel['Account ID']!.value).toBe('101-004-27183640-001');
  });

  it("shows '-' for what OANDA did not send", () => {
    const byLabel = Object.fromEntries(
      accountDetails(account({ alias: null, balance: null, hedgingEnabled: null, openedAt: null })).map((d) => [
        d.label,
        d.value,
      ]),
    );
    expect(byLabel.Alias).toBe('-');
    expect(byLabel.Balance).toBe('-');
    expect(byLabel['Hedging Enabled']).toBe('-');
    expect(byLabel.Opened).toBe('-');
  });

  it('shows a MetaTrader account by its login, with its server, broker, leverage and server time', () => {
    const mt = account({
      platform: 'metatrader',
      oandaAccountId: 'metatrader:ICMarketsSC-Demo:51234567',
      login: '51234567',
      server: 'ICMarketsSC-Demo',
      broker: 'Raw Trading Ltd',
      leverage: '1:500',
      serverUtcOffset: '+02:00',
    });
    const details = accountDetails(mt);
    expect(details).toHaveLength(Object.keys(accountItem.shape).length - HIDDEN_ACCOUNT_FIELDS.length);
    expect(new Set(details.map((d) => d.label)).size).toBe(details.length);
    const byLabel = Object.fromEntries(details.map((d) => [d.label, d.value]));
    expect(details.slice(0, 5).map((d) => d.label)).toEqual(['Alias', 'Account ID', 'Platform', 'Server', 'Broker']);
    expect(byLabel['Account ID']).toBe('51234567');
    expect(byLabel.Platform).toBe('MetaTrader');
    expect(byLabel.Server).toBe('ICMarketsSC-Demo');
    expect(byLabel.Broker).toBe('Raw Trading Ltd');
    expect(byLabel.Leverage).toBe('1:500');
    expect(byLabel['Server Time']).toBe('UTC+02:00');
    expect(byLabel.Equity).toBe('100199.99');
    expect(byLabel['Account Key']).toBe('metatrader:ICMarketsSC-Demo:51234567');
    expect(accountIdOf(mt)).toBe('51234567');
    expect(accountIdOf(account())).toBe('101-004-27183640-001');
  });
});
