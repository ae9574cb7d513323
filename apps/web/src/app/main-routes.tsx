import { Navigate, Route, Routes } from 'react-router';
import { paths } from '../config/paths';
import { AppLayout } from '../components/layout/app-layout';
import { PublicFaqPage } from '../features/faq/components/public-faq-page';
import { FaqPage } from '../features/faq/components/faq-page';
import { TradingPlatformsPage } from '../features/settings/components/trading-platforms-page';
import { AiPlatformsPage } from '../features/settings/components/ai-platforms-page';
import { ProfilePage } from '../features/profile/components/profile-page';
import { OverviewPage } from '../features/overview/components/overview-page';
import { TradesPage } from '../features/trades/components/trades-page';
import { AccountsPage } from '../features/accounts/components/accounts-page';
import { ChatPage } from '../features/chat/components/chat-page';

/** The signed-in app: every main route inside the layout; an unknown path shows the spec's plain text. */
export function MainRoutes() {
  return (
    <Routes>
      <Route path={paths.root} element={<Navigate to={paths.overview} replace />} />
      <Route path={paths.login} element={<Navigate to={paths.overview} replace />} />
      <Route path={paths.register} element={<Navigate to={paths.overview} replace />} />
      <Route path={paths.publicFaqs} element={<PublicFaqPage />} />
      <Route element={<AppLayout />}>
        <Route path={paths.overview} element={<OverviewPage />} />
        <Route path={paths.trades} element={<TradesPage />} />
        <Route path={paths.accounts} element={<AccountsPage />} />
        <Route path={paths.chat} element={<ChatPage />} />
        <Route path={paths.tradingPlatforms} element={<TradingPlatformsPage />} />
        <Route path={paths.aiPlatforms} element={<AiPlatformsPage />} />
        <Route path={paths.profile} element={<ProfilePage />} />
        <Route path={paths.faqs} element={<FaqPage />} />
        <Route path="*" element={<>Auth Page Not Found</>} />
      </Route>
    </Routes>
  );
}
