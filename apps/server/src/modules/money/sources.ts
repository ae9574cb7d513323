import type { AccountItem } from '@pipsense/contract';
import { apiAccountId } from '../trading';
import type { BookRows } from '../trade-views';
import type { AccountSource, CandleSource, EquitySampleSource, MoneyTrade, TradeSource } from './ports';

/**
 * An account's trades through the read side (docs/decisions/021-one-read-side-for-trades.md): its closed trades'
 * amounts by close time (the read side's narrow read), its first open time, and every trade in the book's order.
 */
export function bookTrades(bookRows: Pick<BookRows, 'read' | 'closedAmounts' | 'firstOpenTime'>): TradeSource {
  return {
    closed: (userId, accountKey) => bookRows.closedAmounts(userId, accountKey),
    firstOpenTime: (userId, accountKey) => bookRows.firstOpenTime(userId, accountKey),
    async trades(userId, accountKey) {
      const out: MoneyTrade[] = [];
      await bookRows.read(userId, { account: accountKey }, (row) => {
        if (row[0] !== accountKey) return;
        const closed = row[9] === 'CLOSED';
        out.push({
          tradeId: row[1],
          instrument: row[2],
          price: row[3],
          units: closed ? row[4] : row[5],
          state: row[9],
          openTime: row[10],
          closeTime: row[11],
          realizedPL: row[6],
          financing: row[8],
        });
      });
      return out;
    },
  };
}

/**
 * The accounts an API accountId names (its login or key, the read side's one rule), with their currency and the
 * trader's name for them (alias) from the stored account rows.
 */
export function namedAccounts(
  bookRows: Pick<BookRows, 'accountKeysNamed'>,
  trading: { accounts(userId: string): Promise<AccountItem[]> },
): AccountSource {
  return {
    async named(userId, accountId) {
      const keys = await bookRows.accountKeysNamed(userId, accountId);
      if (keys.size === 0) return [];
      const items = await trading.accounts(userId);
      return [...keys].map((accountKey) => {
        const item = items.find(
          (a) => a.oandaAccountId === apiAccountId(accountKey) && accountKey.includes(`:${a.server}:`),
        );
        return { accountKey, currency: item?.currency ?? null, alias: item?.alias ?? null };
      });
    },
  };
}

/*
 * The sources the module is wired to while the transaction store and the candle store are not there yet: the
 * balance operations an import stored (decision 012), and no samples nor candles for OANDA accounts, so that
 * equity between closes stays unknown rather than guessed. app.ts swaps each for the store once it exists.
 */

/** No equity samples (an account measured on its trades and cash flows alone, as the bench does). */
export const noEquitySamples: EquitySampleSource = { equitySamples: () => Promise.resolve([]) };

/** No candles: equity between closes is unknown. */
export const noCandles: CandleSource = {
  canRead: () => Promise.resolve(false),
  read: () => Promise.resolve([]),
};
