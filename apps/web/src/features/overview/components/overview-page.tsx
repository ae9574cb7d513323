import type { ReactNode } from 'react';
import { CSpinner } from '@coreui/react';
import type { DashboardMetrics } from '@pipsense/contract';
import { isOandaNotConfigured } from '../../../components/data/use-oanda-connection';
import { ConfigureOandaState, LoadErrorState, NotConnectedState } from '../../../components/data/data-states';
import { formatDateTime } from '../../../components/data/format';
import { ListCard } from '../../../components/data/list-card';
import { PlatformDropdown } from '../../../components/data/platform-dropdown';
import { useErrorToast } from '../../../components/data/use-error-toast';
import { usePlatformPaging } from '../../../components/data/use-platform-paging';
import { queryKeys } from '../../../lib/query-keys';
import { browserTimeZone } from '../../../lib/time-zone';
import { useDashboardMetrics } from '../api/dashboard-metrics-api';
import { OverviewContent } from './overview-content';

/** When the data was synced and the numbers computed, under the title. */
function AsOfLine({ metrics }: { metrics: DashboardMetrics }) {
  return (
    <div className="overview-as-of">
      <span>{metrics.dataAsOf ? `Data as of ${formatDateTime(metrics.dataAsOf)}` : 'Nothing synced yet'}</span>
      <span className="text-body-tertiary">Computed {formatDateTime(metrics.computedAt)}</span>
    </div>
  );
}

/** The chosen platform's metrics with their loading, error and 'configure OANDA' states. */
function PlatformOverview({ base, frame }: { base: string; frame: (body: ReactNode) => ReactNode }) {
  // The server buckets weekdays and hours in the browser's zone.
  const timeZone = browserTimeZone() ?? 'UTC';
  const metrics = useDashboardMetrics(base, timeZone);
  useErrorToast('overview', metrics.error, metrics.errorUpdatedAt);

  // A failed poll keeps the overview already shown; the toast says what went wrong.
  if (metrics.data !== undefined) {
    return (
      <>
        {frame(<AsOfLine metrics={metrics.data.data} />)}
        <OverviewContent metrics={metrics.data.data} timeZone={timeZone} />
      </>
    );
  }
  if (metrics.isError) {
    return frame(
      isOandaNotConfigured(metrics.error) ? (
        <ConfigureOandaState message={metrics.error.message} />
      ) : (
        <LoadErrorState what="overview" message={metrics.error.message} onRetry={() => void metrics.refetch()} />
      ),
    );
  }
  return frame(
    <div className="overview-loading" role="status" aria-label="Loading metrics">
      <CSpinner color="primary" aria-hidden="true" />
      <span className="text-body-secondary">Loading metrics…</span>
    </div>,
  );
}

/** SPEC §2 Overview: 'Dashboard – {platform}', the platform switch, and the analytics of the synced trades. */
export function OverviewPage() {
  // SPEC §2: a change clears the metrics and reloads them, so the new platform starts from the spinner.
  const { platform, base, setPlatform } = usePlatformPaging(queryKeys.dashboardMetrics.all);
  const frame = (body: ReactNode) => (
    <ListCard title={`Dashboard – ${platform}`} toolbar={<PlatformDropdown value={platform} onChange={setPlatform} />}>
      {body}
    </ListCard>
  );

  return (
    <div className="overview">
      {base === null ? (
        frame(<NotConnectedState platform={platform} what="analytics" onShowOanda={() => setPlatform('OANDA')} />)
      ) : (
        // Keyed by platform so a switch never shows the previous platform's numbers.
        <PlatformOverview key={platform} base={base} frame={frame} />
      )}
    </div>
  );
}
