import { platformByQuery, type AccountItem } from '@pipsense/contract';

/** An account the form offers: the key the rules routes know it by, and how the trader recognises it. */
export interface AccountChoice {
  id: string;
  label: string;
}

/** 'Primary · 101-004-… (OANDA)', 'FTMO Demo · 5100231 (MetaTrader)': the alias when set, the login, the platform. */
export function accountChoices(accounts: readonly AccountItem[]): AccountChoice[] {
  return accounts.map((account) => {
    const parts = [account.alias, account.login].filter(Boolean);
    return { id: account.oandaAccountId, label: `${parts.join(' · ')} (${platformByQuery(account.platform).label})` };
  });
}
