import type { ComponentType } from 'react';
import { paths } from '../config/paths';
import { lazyChunk } from '../components/errors/lazy-chunk';

// Every screen is its own chunk, loaded when its route is first visited: the login form does not wait for the rest.
const LoginPage = lazyChunk('login-page', () => import('../features/auth/components/login-page'), 'LoginPage');
const RegisterPage = lazyChunk(
  'register-page',
  () => import('../features/auth/components/register-page'),
  'RegisterPage',
);
const PublicFaqPage = lazyChunk(
  'public-faq-page',
  () => import('../features/faq/components/public-faq-page'),
  'PublicFaqPage',
);

const ForgotPasswordPage = lazyChunk(
  'forgot-password-page',
  () => import('../features/auth/components/forgot-password-page'),
  'ForgotPasswordPage',
);
const ResetPasswordPage = lazyChunk(
  'reset-password-page',
  () => import('../features/auth/components/reset-password-page'),
  'ResetPasswordPage',
);
const ConfirmEmailPage = lazyChunk(
  'confirm-email-page',
  () => import('../features/auth/components/confirm-email-page'),
  'ConfirmEmailPage',
);

export interface Screen {
  path: string;
  Screen: ComponentType;
}

/** The public FAQ, reachable signed in or out. */
const publicFaqScreen: Screen = { path: paths.publicFaqs, Screen: PublicFaqPage };

/**
 * The screens reachable signed in or out, outside the signed-in layout: the public FAQ and the pages the emailed
 * links open, since a link may be opened in a browser with or without a session.
 */
export const publicScreens: readonly Screen[] = [
  publicFaqScreen,
  { path: paths.forgotPassword, Screen: ForgotPasswordPage },
  { path: paths.resetPassword, Screen: ResetPasswordPage },
  { path: paths.confirmEmail, Screen: ConfirmEmailPage },
];

/** The screens of the signed-out app, by route. */
export const authScreens: readonly Screen[] = [
  { path: paths.login, Screen: LoginPage },
  { path: paths.register, Screen: RegisterPage },
  ...publicScreens,
];

/** The screens inside the signed-in layout, by route. */
export const mainScreens: readonly Screen[] = [
  {
    path: paths.overview,
    Screen: lazyChunk('overview-page', () => import('../features/overview/components/overview-page'), 'OverviewPage'),
  },
  {
    path: paths.trades,
    Screen: lazyChunk('trades-page', () => import('../features/trades/components/trades-page'), 'TradesPage'),
  },
  {
    path: paths.tradesImport,
    Screen: lazyChunk('import-page', () => import('../features/import/components/import-page'), 'ImportPage'),
  },
  {
    path: paths.journalCalendar,
    Screen: lazyChunk('calendar-page', () => import('../features/journal/components/calendar-page'), 'CalendarPage'),
  },
  {
    path: paths.journalTags,
    Screen: lazyChunk('tags-page', () => import('../features/journal/components/tags-page'), 'TagsPage'),
  },
  {
    path: paths.playbooks,
    Screen: lazyChunk(
      'playbooks-page',
      () => import('../features/playbooks/components/playbooks-page'),
      'PlaybooksPage',
    ),
  },
  {
    path: paths.missedTrades,
    Screen: lazyChunk(
      'missed-trades-page',
      () => import('../features/playbooks/components/missed-trades-page'),
      'MissedTradesPage',
    ),
  },
  {
    path: paths.accounts,
    Screen: lazyChunk('accounts-page', () => import('../features/accounts/components/accounts-page'), 'AccountsPage'),
  },
  {
    path: paths.accountMoney,
    Screen: lazyChunk(
      'account-money-page',
      () => import('../features/accounts/components/account-money-page'),
      'AccountMoneyPage',
    ),
  },
  {
    path: paths.rules,
    Screen: lazyChunk('rules-page', () => import('../features/rules/components/rules-page'), 'RulesPage'),
  },
  {
    path: paths.coachPatterns,
    Screen: lazyChunk('patterns-page', () => import('../features/coach/components/patterns-page'), 'PatternsPage'),
  },
  {
    path: paths.coachWeeklyReviews,
    Screen: lazyChunk(
      'weekly-reviews-page',
      () => import('../features/coach/components/weekly-reviews-page'),
      'WeeklyReviewsPage',
    ),
  },
  {
    path: paths.chat,
    Screen: lazyChunk('chat-page', () => import('../features/chat/components/chat-page'), 'ChatPage'),
  },
  {
    path: paths.tradingPlatforms,
    Screen: lazyChunk(
      'trading-platforms-page',
      () => import('../features/settings/components/trading-platforms-page'),
      'TradingPlatformsPage',
    ),
  },
  {
    path: paths.aiPlatforms,
    Screen: lazyChunk(
      'ai-platforms-page',
      () => import('../features/settings/components/ai-platforms-page'),
      'AiPlatformsPage',
    ),
  },
  {
    path: paths.profile,
    Screen: lazyChunk('profile-page', () => import('../features/profile/components/profile-page'), 'ProfilePage'),
  },
  { path: paths.faqs, Screen: lazyChunk('faq-page', () => import('../features/faq/components/faq-page'), 'FaqPage') },
];
