import { useMemo, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { CSpinner } from '@coreui/react';
import type { DashboardMetrics } from '@pipsense/contract';
import { isOandaNotConfigured } from '../../../components/data/use-oanda-connection';
import { ConfigureOandaState, LoadErrorState, NotConnectedState } from '../../../components/data/data-states';
import { formatDateTime } from '../../../components/data/format';
import { ListCard } from '../../../components/data/list-card';
import { PlatformDropdown } from '../../../components/data/platform-dropdown';
import { useErrorToast } from '../../../components/data/use-error-toast';
import type { PlatformScope } from '../../../components/data/platform-scope';
import { usePlatformPaging } from '../../../components/data/use-platform-paging';
import { queryKeys } from '../../../lib/query-keys';
import { playbooksQuery } from '../../../lib/playbooks-query';
import { useTags } from '../../../lib/tags-query';
import { browserTimeZone } from '../../../lib/time-zone';
import { useAccountOptions, useDashboardMetrics } from '../api/dashboard-metrics-api';
import {
  metricsParams,
  rangeProblem,
  rangeBounds,
  readFilters,
  writeFilters,
  type OverviewFilters,
} from '../model/overview-filters';
import { FilterBar } from './filter-bar';
import { OverviewContent } from './overview-content';
import { PlaybooksCard } from './playbooks-card';
import { RulesCard } from './rules-card';
import './overview-filters.css';

/** When the data was synced and the numbers computed, under the title. */
function AsOfLine({ metrics, updating }: { metrics: DashboardMetrics; updating: boolean }) {
  return (
    <div className="overview-as-of">
      <span>{metrics.dataAsOf ? `Data as of ${formatDateTime(metrics.dataAsOf)}` : 'Nothing synced yet'}</span>
      <span className="text-body-tertiary">Computed {formatDateTime(metrics.computedAt)}</span>
      {updating && (
        <span className="overview-updating" role="status">
          <CSpinner size="sm" color="primary" aria-hidden="true" /> Updating for the new filters…
        </span>
      )}
    </div>
  );
}

/** The filters in the URL, and a way to change them (a new history entry, so Back undoes a change). */
function useUrlFilters() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readFilters(params), [params]);
  const setFilters = (next: OverviewFilters) => setParams(writeFilters(next, params));
  return { filters, setFilters };
}

/** The instruments the metrics name, for the instrument filter (with the chosen one, which narrows them to itself). */
function instrumentsOf(metrics: DashboardMetrics | undefined): string[] {
  if (!metrics) return [];
  return [
    ...metrics.charts.pnlByInstrument.map((row) => row.instrument),
    ...Object.keys(metrics.instrumentBreakdown ?? {}),
  ];
}

/** The chosen platform's metrics with their loading, error and 'configure OANDA' states. */
function PlatformOverview({
  base,
  scope,
  frame,
}: {
  base: string;
  scope: PlatformScope;
  frame: (body: ReactNode) => ReactNode;
}) {
  // The server buckets weekdays and hours in the browser's zone.
  const timeZone = browserTimeZone() ?? 'UTC';
  const { filters, setFilters } = useUrlFilters();
  const platform = scope.params.platform;
  // MetaTrader's numbers come from the same service, asked with platform=metatrader.
  const params = useMemo(
    (): [string, string][] => [
      ...(platform ? [['platform', platform] as [string, string]] : []),
      ...metricsParams(filters),
    ],
    [filters, platform],
  );
  // An inverted custom range is said at the filters and not sent: the last slice stays on screen meanwhile.
  const metrics = useDashboardMetrics(base, timeZone, params, rangeProblem(filters) === null);
  useErrorToast('overview', metrics.error, metrics.errorUpdatedAt);
  const accounts = useAccountOptions(base, platform);
  const tags = useTags();
  const playbooks = useQuery(playbooksQuery());
  const instruments = instrumentsOf(metrics.data?.data);

  const filterBar = (
    <FilterBar
      filters={filters}
      onChange={setFilters}
      accounts={accounts.data ?? []}
      instruments={instruments}
      tags={tags.data ?? []}
      playbooks={playbooks.data ?? []}
    />
  );
  const filterByTag = (tagId: string) =>
    filters.tags.includes(tagId) ? undefined : setFilters({ ...filters, tags: [...filters.tags, tagId] });

  // A failed poll keeps the overview already shown; the toast says what went wrong.
  if (metrics.data !== undefined) {
    return (
      <>
        {frame(
          <>
            {filterBar}
            <AsOfLine metrics={metrics.data.data} updating={metrics.isPlaceholderData && metrics.isFetching} />
          </>,
        )}
        <OverviewContent
          metrics={metrics.data.data}
          timeZone={timeZone}
          imported={scope.imported}
          onFilterTag={filterByTag}
        />
        <PlaybooksCard
          filters={{ ...rangeBounds(filters), ...(filters.accountId ? { accountId: filters.accountId } : {}) }}
        />
      </>
    );
  }
  if (metrics.isError) {
    return frame(
      <>
        {filterBar}
        {!scope.imported && isOandaNotConfigured(metrics.error) ? (
          <ConfigureOandaState message={metrics.error.message} />
        ) : (
          <LoadErrorState what="overview" message={metrics.error.message} onRetry={() => void metrics.refetch()} />
        )}
      </>,
    );
  }
  if (!metrics.isFetching) return frame(filterBar);
  return frame(
    <>
      {filterBar}
      <div className="overview-loading" role="status" aria-label="Loading metrics">
        <CSpinner color="primary" aria-hidden="true" />
        <span className="text-body-secondary">Loading metrics…</span>
      </div>
    </>,
  );
}

/** docs/PRODUCT.md, Overview: 'Dashboard – {platform}', the platform switch, and the analytics of the synced trades. */
export function OverviewPage() {
  // docs/PRODUCT.md, Overview: a change clears the metrics and reloads them, so the new platform starts from the
  // spinner.
  const { platform, ready, base, scope, setPlatform } = usePlatformPaging(queryKeys.dashboardMetrics.all);
  const frame = (body: ReactNode) => (
    <ListCard title={`Dashboard – ${platform}`} toolbar={<PlatformDropdown value={platform} onChange={setPlatform} />}>
      {body}
    </ListCard>
  );

  return (
    <div className="overview">
      <RulesCard />
      {!ready ? (
        // The trader's default platform is not known yet: no platform's numbers (or 'connect OANDA') before it is.
        <ListCard title="Dashboard" toolbar={null}>
          <div className="overview-loading" role="status" aria-label="Loading metrics">
            <CSpinner color="primary" aria-hidden="true" />
            <span className="text-body-secondary">Loading metrics…</span>
          </div>
        </ListCard>
      ) : base === null ? (
        frame(<NotConnectedState platform={platform} what="analytics" onShowOanda={() => setPlatform('OANDA')} />)
      ) : (
        // Keyed by platform so a switch never shows the previous platform's numbers.
        <PlatformOverview key={platform} base={base} scope={scope} frame={frame} />
      )}
    </div>
  );
}
