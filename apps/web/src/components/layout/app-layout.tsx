import { useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { CContainer, CFooter } from '@coreui/react';
import { headingFromPath } from '../../lib/heading';
import { logout, tokenState } from '../../lib/token';
import { useProfile } from '../../lib/profile-query';
import { AppSidebar } from './app-sidebar';
import { AppHeader } from './app-header';
import { EmailConfirmBanner } from './email-confirm-banner';

const WIDE = '(min-width: 992px)';
const wide = () => window.matchMedia(WIDE).matches;

export function AppLayout() {
  const { pathname } = useLocation();
  const [sidebar, setSidebar] = useState(wide);
  const profile = useProfile();

  // Crossing the wide breakpoint shows the docked sidebar or hides the overlay one, as on a fresh load.
  useEffect(() => {
    const media = window.matchMedia(WIDE);
    const onChange = () => setSidebar(media.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);

  // docs/PRODUCT.md, Session: a missing, undecodable or expired token ends the session on every navigation.
  useEffect(() => {
    const state = tokenState();
    if (state !== 'valid') {
      console.warn(`Session token ${state}; signing out.`);
      logout();
    }
  }, [pathname]);

  // docs/PRODUCT.md, Session: a failed profile fetch in the header logs out.
  useEffect(() => {
    if (profile.isError) {
      console.error('Profile fetch failed:', profile.error.message);
      logout();
    }
  }, [profile.isError, profile.error]);

  return (
    <div>
      <AppSidebar visible={sidebar} onVisibleChange={setSidebar} onNavigate={() => !wide() && setSidebar(false)} />
      <div className={`wrapper d-flex flex-column min-vh-100${sidebar ? ' sidebar-open' : ''}`}>
        <AppHeader onToggleSidebar={() => setSidebar((v) => !v)} />
        <div className="body flex-grow-1">
          <CContainer fluid className="px-4">
            <EmailConfirmBanner />
            <h1 className="page-heading h4 mb-4">{headingFromPath(pathname)}</h1>
            <Outlet />
          </CContainer>
        </div>
        <CFooter className="px-4">
          <span>
            Powered by <strong>PipSense</strong>
          </span>
        </CFooter>
      </div>
    </div>
  );
}
