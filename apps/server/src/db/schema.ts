import type { ColumnType } from 'kysely';

/** A nullable text column that an insert may leave out (it is then null). */
type NullableText = ColumnType<string | null, string | null | undefined, string | null>;

/** Times are UTC ISO-8601 text; broker decimals are text so that no digit is lost. */
export interface UsersTable {
  id: string;
  username: string;
  username_key: string;
  email: string;
  password_hash: string;
  /** Moves on a password change or reset, "log out everywhere" and deletion: older tokens stop working (019). */
  session_version: ColumnType<number, number | undefined, number>;
  /** When the emailed confirmation link was opened; null until then (019). */
  email_confirmed_at: NullableText;
  created_at: string;
  updated_at: string;
}

export interface UserInfoTable {
  user_id: string;
  default_ai_platform: string;
  default_trading_platform: string;
  oanda_access_token: string | null;
  oanda_account_id: string;
  oanda_mode: string;
  /** The trader's IANA time zone (Profile); null until saved. */
  time_zone: NullableText;
  /** The trader's home currency, ISO 4217 (Profile); null until saved (migration 026). */
  home_currency: NullableText;
  updated_at: string;
}

/**
 * A broker account of a user, with its last synced summary (decimal strings) and the trade sync checkpoint.
 * Identified by its account key, unique per user (modules/trading/account-key.ts).
 */
export interface BrokerAccountsTable {
  id: string;
  user_id: string;
  /** `<platform>:<server>:<login>`. */
  account_key: string;
  /** PLATFORM_TABLE's stored value: 'oanda' or 'metatrader'. */
  platform: string;
  /** The broker's server; for OANDA its environment, fxpractice or fxtrade. */
  server: string;
  /** The broker's id of the account; for OANDA its account id (101-004-1234567-001). */
  login: string;
  mode: string;
  alias: string | null;
  currency: string | null;
  balance: string | null;
  nav: string | null;
  unrealized_pl: string | null;
  pl: string | null;
  financing: string | null;
  commission: string | null;
  margin_used: string | null;
  margin_available: string | null;
  position_value: string | null;
  margin_rate: string | null;
  margin_closeout_percent: string | null;
  withdrawal_limit: string | null;
  open_trade_count: number | null;
  open_position_count: number | null;
  pending_order_count: number | null;
  /** 0/1 (portable across SQLite and PostgreSQL). */
  hedging_enabled: number | null;
  opened_at: string | null;
  last_transaction_id: string | null;
  synced_at: string;
  trades_through_transaction_id: string | null;
  trades_high_id: string | null;
  trades_synced_at: string | null;
  /** OANDA accounts (migration 024): the transaction id the transaction store is complete up to. */
  transactions_through_id: string | null;
  /** Imported accounts (migration 012): the broker's name, '1:100', and the server's UTC offset ('+02:00'). */
  broker: NullableText;
  leverage: NullableText;
  utc_offset: NullableText;
  /** Imported accounts (migration 022): the server clock rule ('ny-close-us', 'ny-close-eu', 'fixed' at utc_offset). */
  broker_time: NullableText;
  version: number;
  created_at: string;
  updated_at: string;
}

/**
 * A trade synced from a broker, keyed by (user_id, account_key, trade_id): the broker's trade id, with
 * `@<open time>` appended where the broker reuses ids within an account (modules/trading/account-key.ts).
 */
export interface TradesTable {
  user_id: string;
  account_key: string;
  trade_id: string;
  /** Numeric copy of trade_id for ordering; PostgreSQL returns bigint as a string. */
  trade_num: ColumnType<number | string, number, number>;
  mode: string;
  instrument: string;
  price: string | null;
  initial_units: string;
  current_units: string;
  realized_pl: string;
  unrealized_pl: string | null;
  financing: string;
  state: string;
  open_time: string;
  close_time: string | null;
  average_close_price: string | null;
  stop_loss_price: string | null;
  take_profit_price: string | null;
  trailing_stop_distance: string | null;
  /** The first stop-loss price attached to the trade (null: none was ever set, or not known). */
  initial_stop_loss_price: NullableText;
  /** Worst and best price reached over the trade's life (from candles), written after it closed. */
  mae_price: NullableText;
  mfe_price: NullableText;
  /** null = not looked at yet; 'ready', 'unavailable' (no candle source or no candles) or 'failed' (retried). */
  excursion_status: NullableText;
  excursion_at: NullableText;
  /** Failed candle fetches in a row (migration 008); the job waits longer after each. */
  excursion_attempts: ColumnType<number, number | undefined, number>;
  /** PLATFORM_TABLE's stored value (migration 012; 'oanda' when an insert leaves it out). */
  platform: ColumnType<string, string | undefined, string>;
  /** Imported rows: the symbol as printed, lots, commission (with taxes/fees) and swap; null for OANDA. */
  symbol: NullableText;
  lots: NullableText;
  commission: NullableText;
  swap: NullableText;
  /** Imported rows (migration 022): the open time as the server printed it, which a re-import matches by. */
  server_open_time: NullableText;
  created_at: string;
  updated_at: string;
}

/** A journal tag of a user: a setup/strategy, a mistake or an emotion; `name_key` is the unique lower-cased name. */
export interface JournalTagsTable {
  id: string;
  user_id: string;
  kind: string;
  name: string;
  name_key: string;
  created_at: string;
  updated_at: string;
}

/** A trader's note and 1–5 rating of one trade, named by its trade key; survives re-syncs (no foreign key). */
interface TradeNotesTable {
  user_id: string;
  account_key: string;
  trade_id: string;
  note: string;
  rating: number | null;
  created_at: string;
  updated_at: string;
}

/** A tag on a trade, named by its trade key. */
interface TradeTagsTable {
  user_id: string;
  account_key: string;
  trade_id: string;
  tag_id: string;
  created_at: string;
}

/** The user was given the starter tags at `given_at` (once: deleted starter tags do not come back). */
interface JournalStarterTagsTable {
  user_id: string;
  given_at: string;
}

/** One journal entry per calendar day (YYYY-MM-DD in the trader's zone). */
interface JournalDaysTable {
  user_id: string;
  day: string;
  note: string;
  mood: number | null;
  created_at: string;
  updated_at: string;
}

/** A chat of a user on one topic (trading, accounts or candles). */
export interface ChatsTable {
  id: string;
  user_id: string;
  title: string;
  topic: string;
  created_at: string;
  updated_at: string;
}

/** A message of a chat; `user_id` repeats the chat's owner so that every query is scoped by user. */
export interface ChatMessagesTable {
  id: string;
  chat_id: string;
  user_id: string;
  /** 'user' or 'assistant'. */
  role: string;
  content: string;
  /** Assistant messages: 'openai', 'vertexai' or 'builtin'. */
  provider: string | null;
  model: string | null;
  /** JSON array of the contract's attachments. */
  attachments: string;
  /** 0/1 (portable across SQLite and PostgreSQL). */
  failed: number;
  /** 'streaming', 'complete', 'cancelled' or 'failed' (the contract's ANSWER_STATUSES). */
  status: string;
  created_at: string;
  /** When a streaming answer's text was last saved; null for messages written in one go. */
  updated_at: string | null;
}

/**
 * The overview insights an AI provider wrote for one user and scope (`mode|timeZone|provider`), for the data
 * version in `version`. `status`: pending (being written; `started_at` tells a stalled claim), ready (`insights`
 * holds the validated JSON) or fallback (`note` says why; retried after `retry_after` when the failure was
 * transient).
 */
export interface AnalyticsInsightsTable {
  user_id: string;
  scope: string;
  version: string;
  /** The newest synced time of the data the version covers; a claim never goes back to older data. */
  data_as_of: string;
  provider: string;
  status: string;
  model: string | null;
  insights: string | null;
  note: string | null;
  started_at: string;
  written_at: string | null;
  retry_after: string | null;
}

/** An uploaded report between its preview and the trader's confirm (migration 012). */
export interface ImportsTable {
  id: string;
  user_id: string;
  format: string;
  file_name: string | null;
  account_key: string;
  /** The preview (contract importPreview) as JSON. */
  summary: string;
  /** Everything confirm stores, as JSON (modules/import). */
  payload: string;
  created_at: string;
  expires_at: string;
}

/** A user's saved CSV column mapping (contract csvMapping without id and times, as JSON). */
export interface ImportMappingsTable {
  id: string;
  user_id: string;
  name: string;
  name_key: string;
  mapping: string;
  created_at: string;
  updated_at: string;
}

/** A user's units per lot for a symbol (upper case as printed), overriding the built-in table. */
interface ContractSizesTable {
  user_id: string;
  symbol_key: string;
  size: string;
  updated_at: string;
}

/**
 * A deposit, withdrawal, credit, bonus or correction of an imported account (migration 023; docs/decisions/012,
 * Balance operations). `time` is UTC in the stored form of trade times, `server_time` the broker's time as printed;
 * `amount` an exact signed decimal in the account's `currency`.
 */
/** A rule set of a challenge or of personal risk rules (migration 027, modules/rules). */
export interface RuleSetsTable {
  id: string;
  user_id: string;
  account_key: string;
  name: string;
  preset: string | null;
  start_time: string;
  initial_balance: string;
  /** The rules as JSON (the contract's ruleSchema). */
  rules: string;
  /** The alert thresholds as JSON, ascending percents (migration 028). */
  alert_thresholds: string;
  /** 1: the alerts are mailed too; 0: in the app only. */
  email_alerts: number;
  created_at: string;
  updated_at: string;
}

/** A playbook: the trader's setup (migration 030, modules/playbooks; docs/review.md). */
export interface PlaybooksTable {
  id: string;
  user_id: string;
  name: string;
  description: string;
  /** JSON list of instrument names. */
  instruments: string;
  /** JSON list of session names (the contract's PLAYBOOK_SESSIONS). */
  sessions: string;
  default_risk_pct: number | null;
  created_at: string;
  updated_at: string;
}

/** A rule group of a playbook; retired (not deleted) when an edit leaves it out. */
export interface PlaybookGroupsTable {
  id: string;
  playbook_id: string;
  user_id: string;
  name: string;
  position: number;
  retired_at: NullableText;
}

/** A rule of a playbook's group, in the trader's words; retired (not deleted) when an edit leaves it out. */
export interface PlaybookRulesTable {
  id: string;
  playbook_id: string;
  group_id: string;
  user_id: string;
  text: string;
  position: number;
  retired_at: NullableText;
}

/** A trade's playbook and review, by the trade's keys (migration 030). */
export interface TradeReviewsTable {
  user_id: string;
  account_key: string;
  trade_id: string;
  playbook_id: string;
  /** 1: reviewed; 0: not reviewed yet. */
  reviewed: number;
  /** JSON list: the rule ids the trade was reviewed against. */
  rule_ids: string;
  /** JSON list: the rule ids ticked as followed. */
  followed_rule_ids: string;
  /** 1: every rule followed; 0: one broken; null: not reviewed. */
  followed_all: number | null;
  updated_at: string;
}

/** A setup seen and not taken (migration 030). */
export interface MissedTradesTable {
  id: string;
  user_id: string;
  playbook_id: string | null;
  instrument: string;
  side: string;
  time: string;
  entry: string;
  stop: string;
  target: string | null;
  note: string;
  created_at: string;
  updated_at: string;
}

/**
 * An image attached to a trade, a journal day, a playbook or a missed trade (migration 031, modules/attachments;
 * docs/review.md, Attachments). The item is named by `target` and its keys: `account_key` + `trade_id` for a trade,
 * `date` for a day, `item_id` for a playbook or missed trade.
 */
export interface AttachmentsTable {
  id: string;
  user_id: string;
  target: string;
  account_key: string | null;
  trade_id: string | null;
  date: string | null;
  item_id: string | null;
  content_type: string;
  width: number;
  height: number;
  /** The image's bytes after re-encoding. */
  bytes: number;
  thumbnail_bytes: number;
  caption: string;
  /** `db`: the bytes are in attachment_blobs; `s3`: in the bucket under `storage_key`. */
  storage: string;
  storage_key: string;
  created_at: string;
}

/** An image's and its thumbnail's bytes, when stored in the database. */
interface AttachmentBlobsTable {
  attachment_id: string;
  user_id: string;
  data: Uint8Array;
  thumbnail: Uint8Array;
}

/** S3 objects to delete, retried until gone: written in the transaction that deletes their rows. */
interface AttachmentDeletionsTable {
  storage_key: string;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: string;
  last_error: NullableText;
  created_at: string;
}

/** An alert of a loss limit's use crossing a threshold (migration 028, modules/rules; docs/rules.md, Alerts). */
export interface RuleAlertsTable {
  id: string;
  user_id: string;
  rule_set_id: string;
  /** daily_loss or max_loss (contract ALERT_KINDS). */
  kind: string;
  /** The local date (YYYY-MM-DD) in the rule set's reset zone. */
  day: string;
  threshold: number;
  /** Exact decimal percent, e.g. 80.25. */
  percent_used: string;
  currency: string;
  limit: string;
  used: string;
  remaining: string;
  message: string;
  created_at: string;
  read_at: string | null;
  emailed_at: string | null;
}

/** A completed day of a rule set, stored (migration 029, docs/rules.md, Status). */
export interface RuleDaysTable {
  rule_set_id: string;
  user_id: string;
  day: number;
  date: string;
  /** The day record as JSON (the contract's dayRecordSchema). */
  record: string;
  /** The day's trade-level breaks as JSON. */
  breaks: string;
  /** The state the engine carries into the day, JSON; null on the set's first day. */
  carried: string | null;
  digest: string;
}

/** What a rule set's stored days were computed at, and its current day's answer (migration 029). */
export interface RuleSetStatesTable {
  rule_set_id: string;
  user_id: string;
  set_stamp: string;
  data_version: string;
  inputs_digest: string;
  through_day: number | null;
  /** The current day's answer as JSON: status, record, breaks. */
  today: string | null;
  valid_until: string | null;
  computed_at: string;
}

export interface BalanceOperationsTable {
  user_id: string;
  account_key: string;
  operation_id: string;
  platform: string;
  time: string;
  server_time: string;
  /** deposit, withdrawal, credit, bonus, correction or other (contract BALANCE_OPERATION_TYPES). */
  type: string;
  printed_type: string;
  amount: string;
  currency: string | null;
  comment: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * One OANDA candle of one price component, shared by every user of the environment (migration 025,
 * docs/decisions/023-candle-store.md); prices as OANDA's exact decimal strings.
 */
interface CandlesTable {
  environment: string;
  instrument: string;
  granularity: string;
  /** M (mid), B (bid) or A (ask). */
  price: string;
  time: string;
  o: string;
  h: string;
  l: string;
  c: string;
  volume: number;
  /** No other candle of the series starts in [covered_from, covered_to): what fetches have seen whole. */
  covered_from: string;
  covered_to: string;
  fetched_at: string;
}

/**
 * An OANDA account's transactions that move its balance or a trade's stop-loss, take-profit or trailing stop
 * (migration 024, docs/decisions/022-transaction-store.md); decimals as text.
 */
/** A trade reduced or closed by an OANDA ORDER_FILL (migration 033): the fill's TradeReduce for that trade. */
interface TradeReductionsTable {
  user_id: string;
  account_key: string;
  /** The ORDER_FILL's id, a number. */
  transaction_num: ColumnType<number | string, number, number>;
  trade_id: string;
  /** 'reduce': the fill's tradeReduced (a partial close); 'close': one of its tradesClosed. */
  kind: string;
  time: string;
  /** Signed as OANDA gives them: the fill's direction (negative when a long is reduced). */
  units: string;
  price: NullableText;
  realized_pl: NullableText;
  financing: NullableText;
}

interface AccountTransactionsTable {
  user_id: string;
  account_key: string;
  /** OANDA's transaction id, a number: the account's order. */
  transaction_num: ColumnType<number | string, number, number>;
  type: string;
  time: string;
  /** The balance change of a cash flow (TRANSFER_FUNDS amount, DAILY_FINANCING financing, …); null for orders. */
  amount: NullableText;
  /** OANDA's accountBalance after the transaction. */
  balance: NullableText;
  trade_id: NullableText;
  /** ORDER_CANCEL: the order it cancelled. */
  order_id: NullableText;
  replaces_order_id: NullableText;
  price: NullableText;
  distance: NullableText;
  reason: NullableText;
  comment: NullableText;
}

/** NAV, balance and unrealized P/L of an OANDA account when a sync read its summary (migration 024). */
interface EquitySamplesTable {
  user_id: string;
  account_key: string;
  time: string;
  nav: NullableText;
  balance: NullableText;
  unrealized_pl: NullableText;
}

/** Per user: `version` moves when stored trades or accounts change, `journal_version` when tags on trades do. */
interface DataVersionsTable {
  user_id: string;
  version: number;
  journal_version: number;
  /** Moves when only what the trade list shows changes: a note or rating, a trade's excursions (migration 015). */
  list_version: ColumnType<number, number | undefined, number>;
  changed_at: string;
}

/** The unfiltered overview of one scope (platform|mode|zone) as of one data version (migration 013). */
export interface OverviewSnapshotsTable {
  user_id: string;
  scope: string;
  version: string;
  computed_at: string;
  /** The overview's JSON text, without its insights and times. */
  body: string;
  /** JSON: the built-in cards, the facts a provider writes from, the counts. */
  meta: string;
}

/** A user's background sync: schedule, lease (the per-user lock of every instance), progress and failures. */
export interface SyncSchedulesTable {
  user_id: string;
  interval_minutes: number;
  next_due_at: NullableText;
  last_synced_at: NullableText;
  last_error: NullableText;
  failures: ColumnType<number, number | undefined, number>;
  paused_at: NullableText;
  lease_owner: NullableText;
  lease_until: NullableText;
  started_at: NullableText;
  progress_pages: ColumnType<number, number | undefined, number>;
  progress_trades: ColumnType<number, number | undefined, number>;
  updated_at: string;
}

/** A signed-out token (its `jti`), refused until its own expiry (migration 019). */
interface RevokedTokensTable {
  jti: string;
  user_id: string;
  expires_at: string;
}

/** An emailed link (`confirm` or `reset`), by the SHA-256 of its token; single use (migration 019). */
interface EmailTokensTable {
  token_hash: string;
  user_id: string;
  purpose: string;
  email: string;
  created_at: string;
  expires_at: string;
  used_at: NullableText;
}

/** A message of the in-app feedback button (migration 019). */
interface FeedbackTable {
  id: string;
  user_id: string;
  message: string;
  created_at: string;
  mailed_at: NullableText;
}

/** Provider requests of one user on one UTC day (migration 020): the daily AI budget, shared by every instance. */
interface AiUsageTable {
  user_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  requests: number;
}

/** A user's coach settings; no row: the defaults (migration 032). */
interface CoachSettingsTable {
  user_id: string;
  auto_review: number;
  ai_written: number;
  weekly_day: number;
  weekly_hour: number;
  email_weekly: number;
  /** JSON: the thresholds given; the others keep their defaults. */
  thresholds: string;
  updated_at: string;
}

/** A trade's coach review, by the trade's keys (migration 032). */
interface CoachTradeReviewsTable {
  user_id: string;
  account_key: string;
  trade_id: string;
  /** The trade's, journal entry's and candles' version the review was written from. */
  data_version: string;
  /** JSON lists and objects: the facts and the review. */
  facts: string;
  review: string;
  /** 'builtin' or the provider's model name. */
  source: string;
  created_at: string;
}

/** One weekly review per user and ISO week (migration 032). */
interface CoachWeeklyReviewsTable {
  user_id: string;
  week: string;
  from_time: string;
  to_time: string;
  /** JSON: the review with its figures. */
  data: string;
  source: string;
  created_at: string;
  read_at: NullableText;
  emailed_at: NullableText;
}

/** Provider requests of the coach's background work per user and UTC day (migration 032). */
interface CoachAiUsageTable {
  user_id: string;
  day: string;
  requests: number;
}

export interface Database {
  data_versions: DataVersionsTable;
  overview_snapshots: OverviewSnapshotsTable;
  users: UsersTable;
  user_info: UserInfoTable;
  broker_accounts: BrokerAccountsTable;
  trades: TradesTable;
  balance_operations: BalanceOperationsTable;
  account_transactions: AccountTransactionsTable;
  trade_reductions: TradeReductionsTable;
  equity_samples: EquitySamplesTable;
  chats: ChatsTable;
  chat_messages: ChatMessagesTable;
  analytics_insights: AnalyticsInsightsTable;
  journal_tags: JournalTagsTable;
  trade_notes: TradeNotesTable;
  trade_tags: TradeTagsTable;
  journal_days: JournalDaysTable;
  journal_starter_tags: JournalStarterTagsTable;
  imports: ImportsTable;
  import_mappings: ImportMappingsTable;
  contract_sizes: ContractSizesTable;
  sync_schedules: SyncSchedulesTable;
  revoked_tokens: RevokedTokensTable;
  email_tokens: EmailTokensTable;
  feedback: FeedbackTable;
  ai_usage: AiUsageTable;
  candles: CandlesTable;
  rule_sets: RuleSetsTable;
  playbooks: PlaybooksTable;
  playbook_groups: PlaybookGroupsTable;
  playbook_rules: PlaybookRulesTable;
  trade_reviews: TradeReviewsTable;
  missed_trades: MissedTradesTable;
  attachments: AttachmentsTable;
  attachment_blobs: AttachmentBlobsTable;
  attachment_deletions: AttachmentDeletionsTable;
  coach_settings: CoachSettingsTable;
  coach_trade_reviews: CoachTradeReviewsTable;
  coach_weekly_reviews: CoachWeeklyReviewsTable;
  coach_ai_usage: CoachAiUsageTable;
  rule_alerts: RuleAlertsTable;
  rule_days: RuleDaysTable;
  rule_set_states: RuleSetStatesTable;
}

export type Dialect = 'sqlite' | 'postgres';
