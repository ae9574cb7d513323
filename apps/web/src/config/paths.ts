export const paths = {
  root: '/',
  login: '/login',
  register: '/register',
  publicFaqs: '/faqs',
  /** Account recovery and email confirmation (the emailed links open the last two). */
  forgotPassword: '/forgot_password',
  resetPassword: '/reset_password',
  confirmEmail: '/confirm_email',
  overview: '/overview',
  trades: '/trades/all_trades',
  /** MetaTrader 4/5 and CSV import (the heading reads 'Import'). */
  tradesImport: '/trades/import',
  accounts: '/accounts/my_accounts',
  /** One account's money over time (the heading reads 'Money'): `accountMoneyPath` fills it. */
  accountMoney: '/accounts/:accountId/money',
  /** Prop-firm challenges and personal risk rules (docs/rules.md): each rule set's status and days. */
  rules: '/rules/my_rules',
  chat: '/chat/ai_chat',
  journalCalendar: '/journal/calendar',
  journalTags: '/journal/tags',
  /** The trader's setups as checklists (docs/review.md); `?playbook=id` opens one with its report. */
  playbooks: '/journal/playbooks',
  /** Setups seen and not taken, with what they would have made. */
  missedTrades: '/journal/missed_trades',
  /** The coach (docs/coach.md): behaviour patterns with their cost; weekly reviews, `?week=2026-W47` opens one. */
  coachPatterns: '/coach/patterns',
  coachWeeklyReviews: '/coach/weekly_reviews',
  tradingPlatforms: '/settings/trading_platforms',
  aiPlatforms: '/settings/ai_platforms',
  profile: '/settings/profile',
  faqs: '/settings/faqs',
} as const;

/** The money page of an account, by the `accountId` the API knows it by (an OANDA id or a MetaTrader account key). */
export const accountMoneyPath = (accountId: string) =>
  paths.accountMoney.replace(':accountId', encodeURIComponent(accountId));
