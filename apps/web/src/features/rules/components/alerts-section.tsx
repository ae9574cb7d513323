import { CButton, CCard, CCardBody, CCardHeader, CSpinner } from '@coreui/react';
import { useQuery } from '@tanstack/react-query';
import { AlertList } from '../../../components/alerts/alert-list';
import '../../../components/alerts/alerts.css';
import { alertsQuery, useReadAlerts } from '../../../lib/alerts-query';

const NO_ALERTS = 'No alerts yet. You are told here when a loss limit’s use crosses a threshold.';

/**
 * docs/PRODUCT.md, My Rules: Alerts. Every alert of the user's rule sets, newest first, the unread ones marked; the
 * same cache as the header's bell.
 */
export function AlertsSection() {
  const alerts = useQuery(alertsQuery());
  const read = useReadAlerts();
  const unread = alerts.data?.unread ?? 0;
  const markRead = (ids?: string[]) => read.mutate(ids ? { ids } : {});

  return (
    <CCard className="rule-alerts mb-3" role="region" aria-labelledby="rule-alerts-title">
      <CCardHeader className="rule-alerts-head">
        <h2 id="rule-alerts-title" className="h6 mb-0">
          Alerts
          {unread > 0 && <span className="text-body-secondary fw-normal"> · {unread} unread</span>}
        </h2>
        <CButton
          size="sm"
          color="primary"
          variant="ghost"
          disabled={unread === 0 || read.isPending}
          onClick={() => markRead()}
        >
          Mark all read
        </CButton>
      </CCardHeader>
      <CCardBody className="p-0">
        {alerts.isPending ? (
          <div className="rule-loading" role="status" aria-label="Loading alerts">
            <CSpinner size="sm" color="primary" aria-hidden="true" />
          </div>
        ) : alerts.isError ? (
          <div className="p-3 text-danger small" role="alert">
            The alerts could not be loaded: {alerts.error.message}{' '}
            <CButton size="sm" color="link" className="p-0 align-baseline" onClick={() => void alerts.refetch()}>
              Try again
            </CButton>
          </div>
        ) : alerts.data.alerts.length === 0 ? (
          <p className="p-3 mb-0 text-body-secondary small">{NO_ALERTS}</p>
        ) : (
          <AlertList className="rule-alerts-list" alerts={alerts.data.alerts} onRead={(id) => markRead([id])} />
        )}
      </CCardBody>
    </CCard>
  );
}
