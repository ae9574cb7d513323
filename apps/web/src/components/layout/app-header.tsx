import { Link } from 'react-router';
import {
  CAvatar,
  CContainer,
  CDropdown,
  CDropdownItem,
  CDropdownMenu,
  CDropdownToggle,
  CHeader,
  CHeaderNav,
  CHeaderToggler,
  CDropdownDivider,
} from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilMenu, cilUser, cilLifeRing, cilAccountLogout, cilLockLocked } from '@coreui/icons';
import { toast } from 'react-toastify';
import { paths } from '../../config/paths';
import { failureMessage } from '../../lib/api';
import { signOut, signOutEverywhere } from '../../lib/session';
import { FeedbackButton } from './feedback-button';
import { AlertsBell } from './alerts-bell';
import { useProfile } from '../../lib/profile-query';

function initialOf(username: string | undefined): string {
  return username?.trim().charAt(0).toUpperCase() || 'U';
}

export function AppHeader({ onToggleSidebar }: { onToggleSidebar: () => void }) {
  const { data: profile } = useProfile();
  return (
    <CHeader position="sticky" className="mb-4 px-0 py-2">
      <CContainer fluid className="px-4">
        <CHeaderToggler onClick={onToggleSidebar} aria-label="Toggle navigation" style={{ marginInlineStart: '-14px' }}>
          <CIcon icon={cilMenu} size="lg" />
        </CHeaderToggler>
        <CHeaderNav className="ms-auto align-items-center">
          <FeedbackButton />
          <AlertsBell />
          <CDropdown variant="nav-item" alignment="end">
            <CDropdownToggle caret={false} className="py-0 d-flex align-items-center gap-2" aria-label="Profile menu">
              <CAvatar color="primary" textColor="white" size="md">
                {initialOf(profile?.username)}
              </CAvatar>
              <span className="header-name">{profile?.username ?? ''}</span>
            </CDropdownToggle>
            <CDropdownMenu className="pt-0">
              <CDropdownItem as={Link} to={paths.profile}>
                <CIcon icon={cilUser} className="me-2" />
                Profile
              </CDropdownItem>
              <CDropdownItem as={Link} to={paths.faqs}>
                <CIcon icon={cilLifeRing} className="me-2" />
                FAQs
              </CDropdownItem>
              <CDropdownDivider />
              <CDropdownItem as="button" type="button" onClick={() => void signOut()}>
                <CIcon icon={cilAccountLogout} className="me-2" />
                Logout
              </CDropdownItem>
              <CDropdownItem
                as="button"
                type="button"
                onClick={() =>
                  void signOutEverywhere().catch((error: unknown) =>
                    toast.error(failureMessage(error, 'Could not sign out everywhere. Please try again.')),
                  )
                }
              >
                <CIcon icon={cilLockLocked} className="me-2" />
                Log out everywhere
              </CDropdownItem>
            </CDropdownMenu>
          </CDropdown>
        </CHeaderNav>
      </CContainer>
    </CHeader>
  );
}
