import type { Database } from '../../db/schema';

/**
 * The tables the trade views read. They write none of them: trading owns `trades` and `broker_accounts`, the journal
 * owns `trade_notes`, `trade_tags` and `journal_tags`, the playbooks own `trade_reviews`, the attachments own
 * `attachments`. This module is where a trade is read together with its account, its journal, its review and how
 * many images it carries.
 */
export type TradeViewsTables = Pick<
  Database,
  'trades' | 'broker_accounts' | 'trade_notes' | 'trade_tags' | 'journal_tags' | 'trade_reviews' | 'attachments'
>;
