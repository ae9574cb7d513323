import { useState, type ComponentProps } from 'react';
import { Link } from 'react-router';
import { CBadge, CButton, CDropdown, CDropdownMenu, CDropdownToggle, CSpinner } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilBell } from '@coreui/icons';
import { useQuery } from '@tanstack/react-query';
import { paths } from '../../config/paths';
import { alertsQuery, useReadAlerts } from '../../lib/alerts-query';
import { weekPath, weeklyReviewsQuery } from '../../lib/coach-query';
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
 * Opening the panel marks nothing read; clicking an alert marks that one, 'Mark all read' every unread one. An unread
 * weekly review of the coach is announced here too (docs/PRODUCT.md, Coach); opening the week marks it read.
 */
export function AlertsBell() {
  const [open, setOpen] = useState(false);
  const alerts = useQuery(alertsQuery());
  const read = useReadAlerts();
  // A failed read of the weekly reviews leaves the rule alerts as they are: the Weekly Reviews screen says why.
  const weeks = useQuery(weeklyReviewsQuery());
  const unreadWeeks = weeks.data?.weeks.filter((w) => w.readAt === null) ?? [];
  const unreadAlerts = alerts.data?.unread ?? 0;
  const unread = unreadAlerts + unreadWeeks.length;
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
            disabled={unreadAlerts === 0 || read.isPending}
            onClick={() => markRead()}
          >
            Mark all read
          </CButton>
        </div>
        <div className="alert-panel-list">
          {unreadWeeks.length > 0 && (
            <ul className="list-unstyled mb-0" aria-label="Weekly reviews">
              {unreadWeeks.map((w) => (
                <li key={w.week} className="alert-item">
                  <Link
                    className="alert-entry alert-unread alert-week"
                    to={weekPath(w.week)}
                    onClick={() => setOpen(false)}
                  >
                    <span className="alert-dot" aria-hidden="true" />
                    <span className="alert-text">
                      <span className="alert-message">Your weekly review of {w.week} is ready</span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
          {alerts.isPending ? (
            <div className="alert-panel-empty text-center" role="status" aria-label="Loading alerts">
              <CSpinner size="sm" color="primary" aria-hidden="true" />
            </div>
          ) : alerts.isError ? (
            <div className="alert-panel-empty text-danger small" role="alert">
              The alerts could not be loaded: {alerts.error.message}
            </div>
          ) : alerts.data.alerts.length === 0 && unreadWeeks.length === 0 ? (
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
