export const paths = {
  root: '/',
  login: '/login',
  register: '/register',
  publicFaqs: '/faqs',
  overview: '/overview',
  trades: '/trades/all_trades',
  accounts: '/accounts/my_accounts',
  chat: '/chat/ai_chat',
  tradingPlatforms: '/settings/trading_platforms',
  aiPlatforms: '/settings/ai_platforms',
  profile: '/settings/profile',
  faqs: '/settings/faqs',
} as const;
