import { describe, expect, it } from 'vitest';
import type { AccountItem, TradeItem } from '@pipsense/contract';
import { dataVersion } from './data-version';

const trade = (id: string, updatedAt: string) => ({ tradeId: id, updatedAt }) as TradeItem;
const account = (syncedAt: string, updatedAt = '2025-10-01T00:00:00.000Z') =>
  ({ oandaAccountId: '101-004-1-001', syncedAt, updatedAt }) as AccountItem;

describe('dataVersion', () => {
  const trades = [trade('1', '2025-10-02T10:00:00.000Z'), trade('2', '2025-10-03T09:00:00.000Z')];
  const base = dataVersion(trades, [account('2025-10-03T08:00:00.000Z')]);

  it('is the same for the same synced data', () => {
    expect(dataVersion([...trades].reverse(), [account('2025-10-03T08:00:00.000Z')])).toEqual(base);
  });

  it('moves with every sync, even one that changed nothing', () => {
    expect(dataVersion(trades, [account('2025-10-03T12:00:00.000Z')]).digest).not.toBe(base.digest);
  });

  it('moves when a trade changes or disappears', () => {
    expect(
      dataVersion([trades[0]!, trade('2', '2025-10-03T09:30:00.000Z')], [account('2025-10-03T08:00:00.000Z')]).digest,
    ).not.toBe(base.digest);
    expect(dataVersion([trades[1]!], [account('2025-10-03T08:00:00.000Z')]).digest).not.toBe(base.digest);
  });

  it('dates the data by the newest sync or trade write', () => {
    expect(base.dataAsOf).toBe('2025-10-03T09:00:00.000Z');
    expect(dataVersion(trades, [account('2025-10-04T00:00:00.000Z')]).dataAsOf).toBe('2025-10-04T00:00:00.000Z');
    expect(dataVersion([], [])).toMatchObject({ dataAsOf: null });
  });
});
