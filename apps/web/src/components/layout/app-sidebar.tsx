import { NavLink, Link, useLocation } from 'react-router';
import {
  CCloseButton,
  CNavGroup,
  CNavItem,
  CNavLink,
  CSidebar,
  CSidebarBrand,
  CSidebarHeader,
  CSidebarNav,
} from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { navGroups } from './nav';

interface Props {
  visible: boolean;
  onVisibleChange: (visible: boolean) => void;
  /** On small screens the sidebar overlays the page, so following a link closes it. */
  onNavigate: () => void;
}

export function AppSidebar({ visible, onVisibleChange, onNavigate }: Props) {
  const { pathname } = useLocation();
  return (
    <CSidebar
      className="border-end"
      colorScheme="dark"
      position="fixed"
      visible={visible}
      onVisibleChange={onVisibleChange}
      aria-label="Main navigation"
    >
      <CSidebarHeader className="border-bottom">
        <CSidebarBrand as={Link} to="/" className="text-decoration-none sidebar-logo" aria-label="PipSense home">
          <img src="/favicon.svg" width={28} height={28} alt="" />
          <span className="ms-2 fw-semibold">PipSense</span>
        </CSidebarBrand>
        <CCloseButton className="d-lg-none" dark onClick={() => onVisibleChange(false)} aria-label="Close navigation" />
      </CSidebarHeader>
      <CSidebarNav>
        {navGroups.map((group) => (
          <CNavGroup
            key={`${group.name}-${pathname.startsWith(group.prefix)}`}
            visible={pathname.startsWith(group.prefix)}
            toggler={
              <>
                <CIcon customClassName="nav-icon" icon={group.icon} />
                {group.name}
              </>
            }
          >
            {group.links.map((link) => (
              <CNavItem key={link.to}>
                <CNavLink as={NavLink} to={link.to} onClick={onNavigate}>
                  <span className="nav-icon">
                    <span className="nav-icon-bullet" />
                  </span>
                  {link.name}
                </CNavLink>
              </CNavItem>
            ))}
          </CNavGroup>
        ))}
      </CSidebarNav>
    </CSidebar>
  );
}
