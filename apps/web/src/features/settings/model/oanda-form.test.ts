import { describe, expect, it } from 'vitest';
import { isOandaActive, validateOandaForm } from './oanda-form';

describe('validateOandaForm (docs/PRODUCT.md, Validation)', () => {
  it.each([
    [{ accessToken: '', accountId: '101-001-1234567-001', mode: 'demo' as const }],
    [{ accessToken: '   ', accountId: '101-001-1234567-001', mode: 'live' as const }],
    [{ accessToken: 'tok', accountId: '', mode: '' as const }],
    [{ accessToken: 'tok', accountId: '  ', mode: '' as const }],
  ])('refuses %o', (form) => expect(validateOandaForm(form)).toBe('All fields are required.'));

  it.each([
    [{ accessToken: 'tok', accountId: '', mode: 'demo' as const }],
    [{ accessToken: 'tok', accountId: '101-001-1234567-001', mode: '' as const }],
    [{ accessToken: 'tok', accountId: '101-001-1234567-001', mode: 'live' as const }],
  ])('accepts %o', (form) => expect(validateOandaForm(form)).toBeNull());
});

describe('isOandaActive', () => {
  const oanda = { accessToken: '••••4f2a', accountId: '', mode: 'demo' as const };
  it('needs OANDA as the default and a saved token', () => {
    expect(isOandaActive({ default_ai_platfrom: 'openai', default_trading_platfrom: 'OANDA', oanda })).toBe(true);
    expect(isOandaActive({ default_ai_platfrom: 'openai', default_trading_platfrom: '', oanda })).toBe(false);
    expect(
      isOandaActive({
        default_ai_platfrom: 'openai',
        default_trading_platfrom: 'OANDA',
        oanda: { ...oanda, accessToken: '' },
      }),
    ).toBe(false);
  });
});
