import type { InfoRecord } from '@pipsense/contract';

export type OandaForm = InfoRecord['oanda'];

/**
 * docs/PRODUCT.md, Validation: the token is required, and at least one of account id and mode. Returns the message or
 * null.
 */
export function validateOandaForm(form: OandaForm): string | null {
  if (!form.accessToken.trim()) return 'All fields are required.';
  if (!form.accountId.trim() && !form.mode) return 'All fields are required.';
  return null;
}

/**
 * The whole info record to save: OANDA becomes the default trading platform (docs/PRODUCT.md, Trading platform
 * settings).
 */
export function oandaRecord(current: InfoRecord, form: OandaForm): InfoRecord {
  return {
    ...current,
    default_trading_platfrom: 'OANDA',
    oanda: { accessToken: form.accessToken.trim(), accountId: form.accountId.trim(), mode: form.mode },
  };
}

/** Active only when it is the default and a token is saved: an unconnected OANDA is not in use. */
export const isOandaActive = (record: InfoRecord) =>
  record.default_trading_platfrom === 'OANDA' && record.oanda.accessToken !== '';
