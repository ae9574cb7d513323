import { z } from 'zod';
import { importUploadFields } from './import';
import { queryResponse } from './chat';
import { uploadAttachmentFields } from './attachment';

/**
 * What the API reference (`/api/docs`, apps/server/src/plugins/openapi.ts) says about each route beyond its
 * schemas: the area it belongs to, a one-line summary, whether it needs a signed-in user, and the failures
 * worth naming. The request and response schemas themselves are the ones the routes validate with.
 */
export const API_TAGS = {
  Auth: 'Registration, sign-in and the signed-in user.',
  Settings: 'The profile, password, time zone and trading platform settings (`/api/v1/account/…` in the spec).',
  Accounts: 'Broker accounts: the list, the account sync and the balance operations of imported accounts.',
  Trades: 'The trade history, its CSV export, the trade sync and candles.',
  Money: "Money over time: an account's cash flows, balance and equity history, and time-weighted returns.",
  Sync: 'Background sync: its status and the schedule.',
  Overview: 'The Overview: every metric of the dashboard, from a snapshot per data version.',
  Journal: 'Tags, trade notes and ratings, the P/L calendar and the daily journal.',
  Chat: 'Chats and their conversations.',
  Assistant:
    'Questions to the assistant. JSON by default; with `Accept: text/event-stream` the answer streams as server-sent events.',
  Import: 'MetaTrader 4/5 and CSV import: upload, preview, confirm; saved CSV column mappings.',
  Playbooks: 'Playbooks with rule checklists, trade reviews against them, their report, and missed trades.',
  Attachments: 'Images on trades, journal days, playbooks and missed trades: upload, view, caption, delete.',
  Coach:
    'Grounded reviews of closed trades, behaviour patterns with their cost, and weekly reviews. Code computes every fact; a provider or the built-in analyst phrases them.',
  Rules: 'Prop-firm challenges and personal risk rules: rule sets per account, their status, days and breaks.',
  Support: 'The in-app feedback button.',
  Health: 'Liveness of the server.',
} as const;
export type ApiTag = keyof typeof API_TAGS;

/** Failures a route names besides the generic ones (400 for an invalid request, 401 without a session). */
type ApiErrorStatus = 400 | 401 | 404 | 409 | 410 | 413 | 429 | 502 | 504;

export interface ApiRouteDoc {
  tag: ApiTag;
  summary: string;
  description?: string;
  /** Answers without a session; every other route needs `Authorization: Bearer <JWT>`. */
  public?: true;
  errors?: Partial<Record<ApiErrorStatus, string>>;
  /** A multipart/form-data body, read by the handler rather than by a body schema: its fields. */
  multipart?: z.ZodType;
  /** A body other than JSON: its content type and what it holds. */
  produces?: { contentType: string; description: string };
  /** Also answers as server-sent events with `Accept: text/event-stream`. */
  events?: boolean;
}

/** The upload form: the report file and the optional text fields. */
const importUploadForm = importUploadFields.extend({
  file: z.file().describe('The report: MT4 statement (.htm/.html), MT5 report (.html or .xlsx) or a CSV file.'),
});

/** The server-sent events of a streamed answer (`Accept: text/event-stream`), one per `event:` name. */
export const answerEvents = {
  delta: z.object({ text: z.string() }).describe('A piece of the answer as it is written.'),
  done: queryResponse.describe('The answer stored: the same body as the JSON response. Last event.'),
  error: z.object({ message: z.string() }).describe('The answer failed. Last event.'),
};

const noChat = { 404: 'No such chat.' };
const oanda = {
  400: 'OANDA is not connected yet (`OANDA_NOT_CONFIGURED`).',
  502: 'OANDA refused the token or the request, or could not be reached.',
  504: 'OANDA did not answer in time.',
};
const syncing = { 409: 'A sync of this user is already running.', ...oanda };
const asking = { ...noChat, 429: 'Too many questions this minute.' };
const noPreview = { 404: 'No such preview (confirmed, cancelled or never made).' };

/** Every route, keyed `METHOD /path` as registered (path parameters as `:name`). */
export const apiRouteDocs: Record<string, ApiRouteDoc> = {
  'GET /healthz': { tag: 'Health', summary: 'Liveness: the server answers and names its database', public: true },

  'POST /api/v1/auth/register': {
    tag: 'Auth',
    summary: 'Create an account',
    public: true,
    errors: { 409: 'The username or email is taken.', 429: 'Too many attempts from this address or name.' },
  },
  'POST /api/v1/auth/login': {
    tag: 'Auth',
    summary: 'Sign in: a JWT for the Authorization header',
    public: true,
    errors: { 401: 'Wrong username or password.', 429: 'Too many attempts from this address or name.' },
  },
  'POST /api/v1/auth/check_username_exist': { tag: 'Auth', summary: 'Is this username taken?', public: true },
  'POST /api/v1/auth/check_email_exist': { tag: 'Auth', summary: 'Is this email taken?', public: true },
  'GET /api/v1/auth/me': { tag: 'Auth', summary: 'The signed-in user' },
  'POST /api/v1/auth/logout': { tag: 'Auth', summary: 'Sign out: this token stops working' },
  'POST /api/v1/auth/logout_all': {
    tag: 'Auth',
    summary: 'Log out everywhere: every token of the user stops working',
  },
  'POST /api/v1/auth/confirm_email': {
    tag: 'Auth',
    summary: 'Confirm the email address with the token of the emailed link (valid 7 days)',
    public: true,
    errors: { 400: 'The link is invalid, expired, or for an address the account no longer uses.' },
  },
  'POST /api/v1/auth/resend_confirmation': {
    tag: 'Auth',
    summary: 'Email the confirmation link again',
    errors: { 400: 'The address is confirmed already.', 429: 'A link was sent less than a minute ago.' },
  },
  'POST /api/v1/auth/request_password_reset': {
    tag: 'Auth',
    summary: 'Email a password reset link (valid 1 hour); the same answer whether or not the address has an account',
    public: true,
    errors: { 429: 'Too many attempts from this address.' },
  },
  'POST /api/v1/auth/reset_password': {
    tag: 'Auth',
    summary: 'Set a new password with the token of the emailed link (single use); ends every session',
    public: true,
    errors: { 400: 'The link is invalid, used or expired.', 429: 'Too many attempts from this address.' },
  },

  'GET /api/v1/account/get_info': { tag: 'Settings', summary: 'Trading platform settings (the OANDA token masked)' },
  'POST /api/v1/account/update_info': {
    tag: 'Settings',
    summary: 'Save trading platform settings (the OANDA token encrypted at rest)',
  },
  'POST /api/v1/account/update_username_email': {
    tag: 'Settings',
    summary: 'Change username and email',
    errors: { 409: 'The username or email is taken.' },
  },
  'POST /api/v1/account/update_password': {
    tag: 'Settings',
    summary: 'Change the password (the current one required); ends every other session and answers a fresh token',
    errors: {
      400: 'The current password is wrong or missing; nothing was changed.',
      429: 'Too many attempts from this address.',
    },
  },
  'POST /api/v1/account/delete_account': {
    tag: 'Settings',
    summary: 'Delete the account and every row of its data (the password required)',
    errors: {
      400: 'The password is wrong or missing; nothing was deleted.',
      429: 'Too many attempts from this address.',
    },
  },
  'GET /api/v1/account/get_time_zone': { tag: 'Settings', summary: 'The time zone the Overview is computed in' },
  'POST /api/v1/account/update_time_zone': { tag: 'Settings', summary: 'Set the time zone of the Overview' },
  'GET /api/v1/account/get_home_currency': {
    tag: 'Settings',
    summary: 'The home currency money of several currencies is converted into (or the currency of the most trades)',
  },
  'POST /api/v1/account/update_home_currency': {
    tag: 'Settings',
    summary: 'Set the home currency (an ISO 4217 code such as USD)',
  },

  'GET /api/v1/account/get_accounts': { tag: 'Accounts', summary: 'Broker accounts, a page at a time' },
  'GET /api/v1/account/get_balance_operations/:accountId': {
    tag: 'Accounts',
    summary: "An imported account's deposits, withdrawals, credits and bonuses, newest first, a page at a time",
    errors: { 404: 'No account of yours has this key or login.' },
  },
  'GET /api/v1/account/sync_account': {
    tag: 'Accounts',
    summary: 'Sync the broker accounts from OANDA now',
    errors: syncing,
  },

  'GET /api/v1/money/get_cash_flows': {
    tag: 'Money',
    summary: 'Deposits, withdrawals, credits, financing and adjustments of your accounts, oldest first',
    errors: { 404: 'No account of yours (of that platform) has this key or login.' },
  },

  'GET /api/v1/trade/get_trade_history': { tag: 'Trades', summary: 'Trades, filtered, a page at a time' },
  'GET /api/v1/trade/get_replay/:accountId/:tradeId': {
    tag: 'Trades',
    summary: "A trade's candles from before its entry to its exit, with its entry, stop, target and exit events",
    errors: {
      ...oanda,
      400: 'A bad `granularity` or `before`, or a granularity too fine for the trade (the message names the field).',
      404: 'No trade of yours has these keys.',
      409: 'No candle source covers this instrument (`REPLAY_NO_CANDLE_SOURCE`: no OANDA connection; `REPLAY_NO_CANDLES`: OANDA has no candles for it).',
      429: 'The user already has 8 candle requests running or waiting (`TOO_MANY_RUNNING`).',
    },
  },
  'GET /api/v1/trade/export_trades': {
    tag: 'Trades',
    summary: 'The filtered trades as a CSV file (streamed)',
    produces: { contentType: 'text/csv', description: 'The filtered trades, one row each, as an attachment.' },
  },
  'GET /api/v1/trade/sync_trade': {
    tag: 'Trades',
    summary: 'Sync the trades from OANDA now (new and changed, or all with full=true)',
    errors: syncing,
  },
  'GET /api/v1/trade/candles': {
    tag: 'Trades',
    summary: "Candles around a trade, for the trade details' chart",
    errors: { ...oanda, 429: 'The user already has 8 candle requests running or waiting (`TOO_MANY_RUNNING`).' },
  },

  'GET /api/v1/sync/status': { tag: 'Sync', summary: 'Background sync: last and next run, progress, last error' },
  'POST /api/v1/sync/schedule': { tag: 'Sync', summary: 'Set the background sync schedule (off, 5, 15 or 60 min)' },

  'GET /api/v1/dashboard/metrics': {
    tag: 'Overview',
    summary: 'Every Overview metric, optionally filtered',
    errors: {
      429: 'A filtered view or a snapshot to compute while the user has 6 computations running or waiting (`TOO_MANY_RUNNING`).',
    },
  },

  'GET /api/v1/journal/get_tags': { tag: 'Journal', summary: 'The tags, with how many trades carry each' },
  'POST /api/v1/journal/create_tag': {
    tag: 'Journal',
    summary: 'Create a tag',
    errors: { 409: 'A tag of that name exists.' },
  },
  'POST /api/v1/journal/edit_tag/:tagId': {
    tag: 'Journal',
    summary: 'Rename or recolour a tag',
    errors: { 404: 'No such tag.', 409: 'A tag of that name exists.' },
  },
  'POST /api/v1/journal/delete_tag/:tagId': {
    tag: 'Journal',
    summary: 'Delete a tag (removed from its trades)',
    errors: { 404: 'No such tag.' },
  },
  'GET /api/v1/journal/get_trade_note/:accountId/:tradeId': {
    tag: 'Journal',
    summary: "A trade's note, rating and tags",
    errors: { 404: 'No such trade.' },
  },
  'POST /api/v1/journal/update_trade_note/:accountId/:tradeId': {
    tag: 'Journal',
    summary: "Save a trade's note, rating and tags",
    errors: { 404: 'No such trade.' },
  },
  'POST /api/v1/journal/bulk_tag': { tag: 'Journal', summary: 'Add or remove a tag on many trades at once' },
  'GET /api/v1/journal/get_calendar': { tag: 'Journal', summary: 'P/L per day of a month, in the given time zone' },
  'GET /api/v1/journal/get_day/:date': { tag: 'Journal', summary: "A day's trades, P/L and journal entry" },
  'POST /api/v1/journal/update_day/:date': { tag: 'Journal', summary: "Save a day's journal entry" },

  'GET /api/v1/chat/get_chats': { tag: 'Chat', summary: 'Chats of a topic' },
  'POST /api/v1/chat/create_chat': { tag: 'Chat', summary: 'Start a chat' },
  'POST /api/v1/chat/edit_chat/:chatId': { tag: 'Chat', summary: 'Rename a chat', errors: noChat },
  'GET /api/v1/chat/delete_chat/:chatId': {
    tag: 'Chat',
    summary: 'Delete a chat and its messages (a GET, as the spec has it)',
    errors: noChat,
  },
  'GET /api/v1/conversation/get_conversations/:chatId': {
    tag: 'Chat',
    summary: "A chat's messages, oldest first",
    errors: noChat,
  },

  'POST /api/v1/query/oanda/trade': {
    tag: 'Assistant',
    summary: 'Ask about trades',
    events: true,
    errors: asking,
  },
  'POST /api/v1/query/oanda/account': {
    tag: 'Assistant',
    summary: 'Ask about accounts',
    events: true,
    errors: asking,
  },
  'POST /api/v1/query/oanda/candle': {
    tag: 'Assistant',
    summary: 'Ask about candles of an instrument',
    events: true,
    errors: asking,
  },
  'POST /api/v1/query/cancel/:messageId': {
    tag: 'Assistant',
    summary: 'Stop an answer being written: it keeps the text written so far',
    errors: { 404: 'Message not found.' },
  },

  'POST /api/v1/import/upload': {
    tag: 'Import',
    summary: 'Upload a MetaTrader or CSV report: read it and answer a preview (nothing stored yet)',
    multipart: importUploadForm,
    errors: { 409: 'Another upload of this user is still being read.', 413: 'The file is larger than 50 MB.' },
  },
  'POST /api/v1/import/confirm/:importId': {
    tag: 'Import',
    summary: 'Store the trades of a previewed import',
    errors: { ...noPreview, 410: 'The preview expired and was discarded.' },
  },
  'POST /api/v1/import/cancel/:importId': {
    tag: 'Import',
    summary: 'Discard a previewed import',
    errors: noPreview,
  },
  'GET /api/v1/import/mappings': { tag: 'Import', summary: 'Saved CSV column mappings' },
  'POST /api/v1/import/mappings': { tag: 'Import', summary: 'Save a CSV column mapping' },
  'DELETE /api/v1/import/mappings/:id': {
    tag: 'Import',
    summary: 'Delete a saved CSV column mapping',
    errors: { 404: 'No such mapping.' },
  },

  'GET /api/v1/money/get_balance_history/:accountId': {
    tag: 'Money',
    summary: "An account's balance and equity over time, by trade, hour or day",
    errors: { 404: 'No account of yours has this key or login.' },
  },
  'GET /api/v1/money/get_returns': {
    tag: 'Money',
    summary: "An account's time-weighted return in percent, in total and per day, month or year",
    errors: { 404: 'No account of yours has this key or login.' },
  },

  'GET /api/v1/rules/get_presets': { tag: 'Rules', summary: "The firms' presets, each with its rules and source" },
  'GET /api/v1/rules/get_rule_sets': { tag: 'Rules', summary: 'The rule sets of the user' },
  'POST /api/v1/rules/create_rule_set': {
    tag: 'Rules',
    summary: 'Create a rule set for an account, from a preset or rules',
    errors: { 404: 'No account of yours has this key or login.' },
  },
  'POST /api/v1/rules/edit_rule_set/:id': {
    tag: 'Rules',
    summary: 'Edit a rule set',
    errors: { 404: 'No rule set of yours has this id.' },
  },
  'POST /api/v1/rules/delete_rule_set/:id': {
    tag: 'Rules',
    summary: 'Delete a rule set',
    errors: { 404: 'No rule set of yours has this id.' },
  },
  'GET /api/v1/rules/get_status/:id': {
    tag: 'Rules',
    summary: "A rule set's status at a time: state, each rule's room, today's floor",
    errors: { 404: 'No rule set of yours has this id.' },
  },
  'GET /api/v1/rules/get_days/:id': {
    tag: 'Rules',
    summary: "A rule set's day records, one per calendar day",
    errors: { 404: 'No rule set of yours has this id.' },
  },
  'GET /api/v1/rules/get_breaks': {
    tag: 'Rules',
    summary: 'The trades that broke a trade-level rule, with the rule',
    errors: { 404: 'No account of yours has this key or login.' },
  },
  'GET /api/v1/rules/get_alerts': {
    tag: 'Rules',
    summary: "The alerts of the loss limits' use, newest first, with the unread count",
  },
  'POST /api/v1/rules/read_alerts': { tag: 'Rules', summary: 'Mark the named alerts, or every unread one, read' },

  'GET /api/v1/playbook/get_playbooks': { tag: 'Playbooks', summary: 'The playbooks, with their rules and counts' },
  'POST /api/v1/playbook/create_playbook': { tag: 'Playbooks', summary: 'Write a playbook' },
  'POST /api/v1/playbook/edit_playbook/:id': {
    tag: 'Playbooks',
    summary: 'Edit a playbook: groups and rules with an id are kept, without one new, left out retired',
    errors: { 404: 'No playbook of yours has this id.' },
  },
  'POST /api/v1/playbook/delete_playbook/:id': {
    tag: 'Playbooks',
    summary: 'Delete a playbook: its trades are unassigned, its images deleted',
    errors: { 404: 'No playbook of yours has this id.' },
  },
  'GET /api/v1/playbook/get_trade_playbook/:accountId/:tradeId': {
    tag: 'Playbooks',
    summary: "A trade's playbook and review: the rules ticked, retired ones it was reviewed against too",
    errors: { 404: 'No trade of yours has these keys.' },
  },
  'POST /api/v1/playbook/update_trade_playbook/:accountId/:tradeId': {
    tag: 'Playbooks',
    summary: 'Assign a trade to a playbook and tick the rules followed',
    errors: { 404: 'No trade or playbook of yours has this id.' },
  },
  'POST /api/v1/playbook/bulk_assign': {
    tag: 'Playbooks',
    summary: 'Assign many trades to a playbook at once',
    errors: { 404: 'No trade or playbook of yours has this id.' },
  },
  'GET /api/v1/playbook/get_report/:id': {
    tag: 'Playbooks',
    summary: "A playbook's report: figures, follow rate, rules broken, followed all against broke some, missed",
    errors: { 404: 'No playbook of yours has this id.' },
  },
  'GET /api/v1/playbook/get_missed_trades': { tag: 'Playbooks', summary: 'The missed trades, with their would-be R' },
  'POST /api/v1/playbook/create_missed_trade': {
    tag: 'Playbooks',
    summary: 'Log a setup seen and not taken',
    errors: { 404: 'No playbook of yours has this id.' },
  },
  'POST /api/v1/playbook/edit_missed_trade/:id': {
    tag: 'Playbooks',
    summary: 'Edit a missed trade',
    errors: { 404: 'No missed trade of yours has this id.' },
  },
  'POST /api/v1/playbook/delete_missed_trade/:id': {
    tag: 'Playbooks',
    summary: 'Delete a missed trade and its images',
    errors: { 404: 'No missed trade of yours has this id.' },
  },

  'POST /api/v1/attachment/upload': {
    tag: 'Attachments',
    summary: 'Attach a PNG, JPEG or WebP image: checked by its bytes, re-encoded without metadata, thumbnailed',
    multipart: uploadAttachmentFields,
    errors: {
      400: 'The file is not a PNG, JPEG or WebP image.',
      404: 'No item of yours is named so.',
      409: 'The item has 20 images already, or your storage is full.',
      413: 'The file is larger than 10 MB.',
    },
  },
  'GET /api/v1/attachment/get_attachments': { tag: 'Attachments', summary: "An item's images, oldest first" },
  'GET /api/v1/attachment/get_attachment/:id': {
    tag: 'Attachments',
    summary: 'The image',
    produces: { contentType: 'image/*', description: 'The stored image (PNG, JPEG or WebP).' },
    errors: { 404: 'No attachment of yours has this id.' },
  },
  'GET /api/v1/attachment/get_thumbnail/:id': {
    tag: 'Attachments',
    summary: "The image's thumbnail",
    produces: { contentType: 'image/webp', description: 'The thumbnail.' },
    errors: { 404: 'No attachment of yours has this id.' },
  },
  'POST /api/v1/attachment/edit_attachment/:id': {
    tag: 'Attachments',
    summary: "Change an image's caption",
    errors: { 404: 'No attachment of yours has this id.' },
  },
  'POST /api/v1/attachment/delete_attachment/:id': {
    tag: 'Attachments',
    summary: 'Delete an image',
    errors: { 404: 'No attachment of yours has this id.' },
  },
  'GET /api/v1/attachment/get_usage': { tag: 'Attachments', summary: 'The storage used by your images, and the quota' },

  'GET /api/v1/coach/get_trade_review/:accountId/:tradeId': {
    tag: 'Coach',
    summary: "A trade's stored review with its facts, who wrote it, and whether it is stale",
    errors: { 404: 'No trade of yours has this id.' },
  },
  'POST /api/v1/coach/review_trade/:accountId/:tradeId': {
    tag: 'Coach',
    summary: 'Review a trade now, with the AI provider when one is configured, else the built-in analyst',
    errors: {
      404: 'No trade of yours has this id.',
      409: 'The trade is still open.',
      429: 'Too many reviews at once.',
    },
  },
  'GET /api/v1/coach/get_patterns': {
    tag: 'Coach',
    summary: 'The behaviour patterns, each with its flagged trades and their cost against the rest',
  },
  'GET /api/v1/coach/get_settings': { tag: 'Coach', summary: 'The coach settings: reviews, weekly review, thresholds' },
  'POST /api/v1/coach/update_settings': { tag: 'Coach', summary: 'Change any of the coach settings' },
  'GET /api/v1/coach/get_weekly_reviews': { tag: 'Coach', summary: 'The stored weekly reviews, newest first' },
  'GET /api/v1/coach/get_weekly_review/:week': {
    tag: 'Coach',
    summary: "An ended ISO week's review (made on the request when none is stored)",
    errors: { 400: 'The week has not ended yet.' },
  },
  'POST /api/v1/coach/read_weekly_review/:week': {
    tag: 'Coach',
    summary: "Mark a weekly review's notice read",
    errors: { 404: 'No weekly review of yours for this week.' },
  },

  'POST /api/v1/support/feedback': {
    tag: 'Support',
    summary: 'Send feedback: stored, and mailed to the support address when the server has one',
    errors: { 429: 'Too many messages this hour.' },
  },
};
