import { z } from 'zod';

/** Journal tag kinds: a setup or strategy, a mistake, an emotion. */
export const TAG_KINDS = ['setup', 'mistake', 'emotion'] as const;
export type TagKind = (typeof TAG_KINDS)[number];

/** A tag as it appears on a trade row (`get_trade_history`, `get_trade_note`) and in the tag list. */
export const tradeTag = z.object({ id: z.string(), name: z.string(), kind: z.enum(TAG_KINDS) });
export type TradeTag = z.infer<typeof tradeTag>;
