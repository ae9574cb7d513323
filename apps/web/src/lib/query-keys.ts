import type { ChatTopic } from '@pipsense/contract';

/**
 * Every query key of the web app: one key per server resource, so two screens reading the same call share its cache
 * and whoever changes it invalidates the one key. Keys start with the resource; the rest narrows it (service base,
 * page, …), so a prefix clears every cached variant.
 */
export const queryKeys = {
  /** GET account/get_info: the info record and the providers' status. */
  info: ['account-info'] as const,
  /** GET auth/me. */
  profile: ['profile'] as const,
  /** GET account/get_time_zone: the trader's saved time zone (Profile). */
  timeZone: ['account-time-zone'] as const,
  homeCurrency: ['account-home-currency'] as const,
  tradeHistory: {
    all: ['trade-history'] as const,
    /** One page of the list under its filters and sort (the key changes with any of them). */
    page: (base: string, page: number, filters: object = {}) => ['trade-history', base, filters, page] as const,
  },
  accounts: {
    all: ['accounts'] as const,
    /** `platform`: PLATFORM_TABLE's query value when not the default (the same service serves OANDA and MetaTrader). */
    page: (base: string, page: number, platform?: string) => ['accounts', base, platform ?? '', page] as const,
    /** The first 100 accounts of a platform, for a look-up by id (`lib/accounts-query.ts`). */
    firstOf: (base: string, platform?: string) => ['accounts', base, platform ?? '', 'first-100'] as const,
    /**
     * An account's money over time (cash flows, balance history, returns), under `all`: an import or a sync refetches
     * them. `what` names the call and its parameter ('history', 'day').
     */
    money: (base: string, accountId: string, ...what: string[]) =>
      ['accounts', base, 'money', accountId, ...what] as const,
    /** An imported account's deposits, withdrawals, credits… (under `all`: an import or a sync refetches them). */
    balanceOperations: (base: string, accountId: string, page: number) =>
      ['accounts', base, 'balance-operations', accountId, page] as const,
  },
  dashboardMetrics: {
    all: ['dashboard-metrics'] as const,
    /** `filters`: the overview's filter parameters (date range, account, instrument, tags), in request order. */
    of: (base: string, timeZone: string, filters: readonly (readonly [string, string])[] = []) =>
      ['dashboard-metrics', base, timeZone, filters] as const,
  },
  /** GET rules/get_presets, get_rule_sets, get_status/:id and get_days/:id (docs/rules.md, API). */
  rules: {
    presets: ['rules', 'presets'] as const,
    sets: ['rules', 'sets'] as const,
    /** A set's status and days: an edit refetches them. */
    status: (id: string) => ['rules', 'status', id] as const,
    days: (id: string) => ['rules', 'days', id] as const,
    /** GET rules/get_alerts: the header's bell and My Rules' list share it; a sync or an import refetches it. */
    alerts: ['rules', 'alerts'] as const,
  },
  /** docs/review.md: the playbooks, their reports, a trade's review, the missed trades. */
  playbooks: {
    /** Every playbook key: a change to one can move its report, the trade reviews and the Overview's card. */
    all: ['playbooks'] as const,
    /** GET playbook/get_playbooks. */
    list: ['playbooks', 'list'] as const,
    /** GET playbook/get_report/:id under its range and account. */
    report: (id: string, filters: object = {}) => ['playbooks', 'report', id, filters] as const,
    /** GET playbook/get_trade_playbook/:accountId/:tradeId. */
    trade: (accountId: string, tradeId: string) => ['playbooks', 'trade', accountId, tradeId] as const,
    /** GET playbook/get_missed_trades. */
    missed: ['playbooks', 'missed'] as const,
  },
  /** docs/coach.md: the coach's settings, patterns, trade reviews and weekly reviews. */
  coach: {
    /** Every coach key: a change of settings (thresholds) moves the patterns and the reviews' facts. */
    all: ['coach'] as const,
    settings: ['coach', 'settings'] as const,
    /** Every get_patterns answer (cleared on a platform switch). */
    patternsAll: ['coach', 'patterns'] as const,
    /** GET coach/get_patterns under its range, account and platform. */
    patterns: (filters: object = {}) => ['coach', 'patterns', filters] as const,
    /** GET coach/get_trade_review/:accountId/:tradeId. */
    tradeReview: (accountId: string, tradeId: string) => ['coach', 'trade-review', accountId, tradeId] as const,
    /** GET coach/get_weekly_reviews: the Weekly Reviews list and the header's bell share it. */
    weeks: ['coach', 'weeks'] as const,
    /** GET coach/get_weekly_review/:week. */
    week: (week: string) => ['coach', 'week', week] as const,
  },
  /** GET sync/status: the OANDA background sync's schedule and state. */
  syncStatus: ['sync-status'] as const,
  /** GET import/mappings: the user's saved CSV column mappings. */
  importMappings: ['import-mappings'] as const,
  /** GET journal/get_tags: the user's tags (every screen that shows or picks tags). */
  tags: ['journal-tags'] as const,
  /** GET journal/get_trade_note/:accountId/:tradeId. */
  tradeNote: (accountId: string, tradeId: string) => ['journal-trade-note', accountId, tradeId] as const,
  /** GET journal/get_calendar and journal/get_day. */
  calendar: {
    all: ['journal-calendar'] as const,
    month: (month: string, timeZone: string) => ['journal-calendar', 'month', month, timeZone] as const,
    day: (date: string, timeZone: string) => ['journal-calendar', 'day', date, timeZone] as const,
  },
  /** GET attachment/get_attachments, get_attachment/:id and get_thumbnail/:id, get_usage (docs/review.md, Attachments). */
  attachments: {
    all: ['attachments'] as const,
    /** An item's images: `item` is the target and its keys in order ('trade', accountId, tradeId; 'day', date…). */
    of: (...item: string[]) => ['attachments', 'list', ...item] as const,
    /** One image's bytes (full size or thumbnail) by its URL: an attachment's image never changes once stored. */
    image: (url: string) => ['attachments', 'image', url] as const,
    usage: ['attachments', 'usage'] as const,
  },
  tradeCandles: (base: string, instrument: string, granularity: string, from: string, to: string) =>
    ['trade-candles', base, instrument, granularity, from, to] as const,
  /** GET trade/get_replay/:accountId/:tradeId (granularity null: the server's default). */
  tradeReplay: (base: string, accountId: string, tradeId: string, granularity: string | null, before: number) =>
    ['trade-replay', base, accountId, tradeId, granularity, before] as const,
  /** Chat keys include the AI host so that a changed default platform never reads another host's cache. */
  chats: {
    all: (base: string) => ['chat', base, 'chats'] as const,
    of: (base: string, topic: ChatTopic) => ['chat', base, 'chats', topic] as const,
  },
  conversation: (base: string, chatId: string) => ['chat', base, 'conversation', chatId] as const,
};
