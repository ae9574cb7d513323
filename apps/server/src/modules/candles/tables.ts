import type { Database } from '../../db/schema';

/**
 * The table the candle store owns: no other module reads or writes it (db/slice.ts). It holds market data, not a
 * user's (no user_id): an account's deletion leaves it, so the module has no deletion hook
 * (docs/decisions/023-candle-store.md).
 */
export type CandlesTables = Pick<Database, 'candles'>;
