import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { oandaAccount } from '../modules/trading/account-key';

/*
 * A book of two accounts in two currencies, written straight into the tables (as a sync would leave them): a USD
 * account and a JPY account of one user, with closed trades on known days, so that a test can convert them by hand
 * (docs/decisions/024-currencies-never-mixed.md).
 */

interface BookTrade {
  /** Realized P/L in the account's currency. */
  pl: string;
  /** The close time (UTC ISO-8601); the trade opened an hour before. */
  close: string;
  financing?: string;
}

export interface BookAccount {
  login: string;
  currency: string;
  balance: string;
  trades: readonly BookTrade[];
}

/** The USD and JPY accounts of the hand-checked conversion (domain/currency-totals.test.ts uses the same figures). */
export const USD_JPY_BOOK: readonly BookAccount[] = [
  {
    login: '101-004-7000001-001',
    currency: 'USD',
    balance: '101200.5000',
    trades: [{ pl: '1200.5000', close: '2025-03-14T15:00:00.000Z' }],
  },
  {
    login: '101-004-7000001-002',
    currency: 'JPY',
    balance: '9617713.3700',
    trades: [
      { pl: '-45000.0000', close: '2025-03-14T16:00:00.000Z' },
      { pl: '-337286.6300', close: '2025-03-17T09:00:00.000Z' },
    ],
  },
];

/** The user's id by username. */
export async function userIdOf(db: Kysely<Database>, username: string): Promise<string> {
  return (await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
}

/** Writes the accounts and their trades of `userId` (demo OANDA accounts, EUR_USD trades numbered from 1). */
export async function writeCurrencyBook(
  db: Kysely<Database>,
  userId: string,
  accounts: readonly BookAccount[],
): Promise<void> {
  const now = '2025-03-18T00:00:00.000Z';
  let id = 0;
  for (const account of accounts) {
    const identity = oandaAccount('demo', account.login);
    await db
      .insertInto('broker_accounts')
      .values({
        id: `${userId}-${account.login}`,
        user_id: userId,
        ...identity,
        mode: 'demo',
        currency: account.currency,
        balance: account.balance,
        nav: account.balance,
        unrealized_pl: '0.0000',
        margin_used: '0.0000',
        margin_available: account.balance,
        position_value: '0.0000',
        open_trade_count: 0,
        open_position_count: 0,
        synced_at: now,
        version: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    for (const trade of account.trades) {
      id += 1;
      const close = new Date(trade.close);
      await db
        .insertInto('trades')
        .values({
          user_id: userId,
          account_key: identity.account_key,
          trade_id: String(id),
          trade_num: id,
          mode: 'demo',
          instrument: 'EUR_USD',
          price: '1.08000',
          initial_units: '1000',
          current_units: '0',
          realized_pl: trade.pl,
          unrealized_pl: null,
          financing: trade.financing ?? '0.0000',
          state: 'CLOSED',
          open_time: new Date(close.getTime() - 3_600_000).toISOString(),
          close_time: close.toISOString(),
          average_close_price: '1.08100',
          stop_loss_price: null,
          take_profit_price: null,
          trailing_stop_distance: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
  }
}
