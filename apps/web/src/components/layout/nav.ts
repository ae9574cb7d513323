import {
  cilBook,
  cilChartLine,
  cilSpeedometer,
  cilWallet,
  cilChatBubble,
  cilSettings,
  cilShieldAlt,
  cilLightbulb,
} from '@coreui/icons';
import { paths } from '../../config/paths';

interface NavGroup {
  name: string;
  prefix: string;
  icon: string[];
  links: { name: string; to: string }[];
}

/** docs/PRODUCT.md, Signed-in layout (sidebar): each group opens when the current path starts with its prefix. */
export const navGroups: NavGroup[] = [
  { name: 'Dashboard', prefix: '/overview', icon: cilSpeedometer, links: [{ name: 'Overview', to: paths.overview }] },
  { name: 'Trades', prefix: '/trades', icon: cilChartLine, links: [{ name: 'All Trades', to: paths.trades }] },
  {
    name: 'Journal',
    prefix: '/journal',
    icon: cilBook,
    links: [
      { name: 'Calendar', to: paths.journalCalendar },
      { name: 'Tags', to: paths.journalTags },
      { name: 'Playbooks', to: paths.playbooks },
      { name: 'Missed Trades', to: paths.missedTrades },
    ],
  },
  { name: 'Accounts', prefix: '/accounts', icon: cilWallet, links: [{ name: 'My Accounts', to: paths.accounts }] },
  { name: 'Rules', prefix: '/rules', icon: cilShieldAlt, links: [{ name: 'My Rules', to: paths.rules }] },
  {
    name: 'Coach',
    prefix: '/coach',
    icon: cilLightbulb,
    links: [
      { name: 'Patterns', to: paths.coachPatterns },
      { name: 'Weekly Reviews', to: paths.coachWeeklyReviews },
    ],
  },
  { name: 'AI Chat', prefix: '/chat', icon: cilChatBubble, links: [{ name: 'Ask AI', to: paths.chat }] },
  {
    name: 'Settings',
    prefix: '/settings',
    icon: cilSettings,
    links: [
      { name: 'Trading Platforms', to: paths.tradingPlatforms },
      { name: 'AI Platform', to: paths.aiPlatforms },
    ],
  },
];
