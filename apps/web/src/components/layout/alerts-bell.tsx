import { useState, type ComponentProps } from 'react';
import { Link } from 'react-router';
import { CBadge, CButton, CDropdown, CDropdownMenu, CDropdownToggle, CSpinner } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilBell } from '@coreui/icons';
import { useQuery } from '@tanstack/react-query';
import { paths } from '../../config/paths';
import { alertsQuery, useReadAlerts } from '../../lib/alerts-query';
import { AlertList } from '../alerts/alert-list';
import '../alerts/alerts.css';

/** The panel shows the newest few; My Rules lists them all. */
const PANEL_ALERTS = 8;

/** On a phone the panel is shifted to stay half a rem inside the screen's edges. */
type PopperOptions = Exclude<
  ComponentProps<typeof CDropdown>['popperConfig'],
  ((...args: never[]) => unknown) | undefined
>;
const PANEL_POPPER = (config: PopperOptions): PopperOptions => ({
  ...config,
  modifiers: [...(config.modifiers ?? []), { name: 'preventOverflow', options: { padding: 8 } }],
});

/**
 * The header's bell (docs/PRODUCT.md, My Rules: Alerts): the unread count on it, and a panel of the newest alerts.
 * Opening the panel marks nothing read; clicking an alert marks that one, 'Mark all read' every unread one.
 */
export function AlertsBell() {
  const [open, setOpen] = useState(false);
  const alerts = useQuery(alertsQuery());
  const read = useReadAlerts();
  const unread = alerts.data?.unread ?? 0;
  const markRead = (ids?: string[]) => read.mutate(ids ? { ids } : {});

  return (
    <CDropdown
      variant="nav-item"
      alignment="end"
      autoClose="outside"
      popperConfig={PANEL_POPPER}
      visible={open}
      onShow={() => setOpen(true)}
      onHide={() => setOpen(false)}
    >
      <CDropdownToggle
        caret={false}
        className="alert-bell py-1 px-2 me-2"
        aria-label={unread > 0 ? `Alerts, ${unread} unread` : 'Alerts'}
      >
        <CIcon icon={cilBell} size="lg" />
        {unread > 0 && (
          <CBadge color="danger" className="alert-bell-count" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </CBadge>
        )}
      </CDropdownToggle>
      <CDropdownMenu as="div" className="alert-panel" aria-label="Alerts panel">
        <div className="alert-panel-head">
          <strong>Alerts</strong>
          <CButton
            size="sm"
            color="primary"
            variant="ghost"
            disabled={unread === 0 || read.isPending}
            onClick={() => markRead()}
          >
            Mark all read
          </CButton>
        </div>
        <div className="alert-panel-list">
          {alerts.isPending ? (
            <div className="alert-panel-empty text-center" role="status" aria-label="Loading alerts">
              <CSpinner size="sm" color="primary" aria-hidden="true" />
            </div>
          ) : alerts.isError ? (
            <div className="alert-panel-empty text-danger small" role="alert">
              The alerts could not be loaded: {alerts.error.message}
            </div>
          ) : alerts.data.alerts.length === 0 ? (
            <div className="alert-panel-empty text-body-secondary small">No alerts yet.</div>
          ) : (
            <AlertList alerts={alerts.data.alerts.slice(0, PANEL_ALERTS)} onRead={(id) => markRead([id])} />
          )}
        </div>
        <Link className="alert-panel-foot small" to={paths.rules} onClick={() => setOpen(false)}>
          All alerts
        </Link>
      </CDropdownMenu>
    </CDropdown>
  );
}
