import type { ComponentType } from 'react';
import { paths } from '../config/paths';
import { lazyChunk } from '../components/errors/lazy-chunk';

// Every screen is its own chunk, loaded when its route is first visited: the login form does not wait for the rest.
export const LoginPage = lazyChunk('login-page', () => import('../features/auth/components/login-page'), 'LoginPage');
export const RegisterPage = lazyChunk(
  'register-page',
  () => import('../features/auth/components/register-page'),
  'RegisterPage',
);
export const PublicFaqPage = lazyChunk(
  'public-faq-page',
  () => import('../features/faq/components/public-faq-page'),
  'PublicFaqPage',
);

/** The screens inside the signed-in layout, by route. */
export const mainScreens: readonly { path: string; Screen: ComponentType }[] = [
  {
    path: paths.overview,
    Screen: lazyChunk('overview-page', () => import('../features/overview/components/overview-page'), 'OverviewPage'),
  },
  {
    path: paths.trades,
    Screen: lazyChunk('trades-page', () => import('../features/trades/components/trades-page'), 'TradesPage'),
  },
  {
    path: paths.accounts,
    Screen: lazyChunk('accounts-page', () => import('../features/accounts/components/accounts-page'), 'AccountsPage'),
  },
  { path: paths.chat, Screen: lazyChunk('chat-page', () => import('../features/chat/components/chat-page'), 'ChatPage') },
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
