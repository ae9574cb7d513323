import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CButton, CCard, CCardBody, CFormInput, CFormLabel, CFormSelect, CSpinner } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilSettings } from '@coreui/icons';
import { useQuery } from '@tanstack/react-query';
import { PATTERN_LABELS, type MoneyFigure, type PatternResult } from '@pipsense/contract';
import { EmptyState, LoadErrorState, NotConnectedState } from '../../../components/data/data-states';
import { formatCount, formatR, moneyFigureParts, plClass } from '../../../components/data/format';
import { PlatformDropdown } from '../../../components/data/platform-dropdown';
import type { PlatformScope } from '../../../components/data/platform-scope';
import { platformState, usePlatformPaging } from '../../../components/data/use-platform-paging';
import type { PlatformName } from '../../../config/env';
import { paths } from '../../../config/paths';
import { accountChoices, type AccountChoice } from '../../../lib/account-choices';
import { accountsOfPlatformQuery } from '../../../lib/accounts-query';
import { queryKeys } from '../../../lib/query-keys';
import { usePatterns } from '../api/coach-api';
import {
  invertedRange,
  patternQuery,
  patternViewFromParams,
  patternViewToParams,
  tradeListSearch,
  type PatternView,
} from '../model/coach-view';
import { CoachSettingsDialog } from './coach-settings';
import '../coach.css';

/** A money figure under the currency rule, one part per currency, coloured by its sign. */
export function Money({ figure }: { figure: MoneyFigure | null }) {
  if (figure === null) return <span>-</span>;
  return (
    <>
      {moneyFigureParts(figure).map((part) => (
        <span key={part.currency} className={`coach-money ${plClass(part.amount)}`}>
          {part.text}
        </span>
      ))}
    </>
  );
}

/** The chosen platform's accounts, for the account filter (none for a platform without a service). */
function useAccountChoices(scope: PlatformScope): AccountChoice[] {
  const list = useQuery({
    ...accountsOfPlatformQuery(scope.base ?? '', scope.params.platform),
    enabled: scope.base !== null,
  });
  return accountChoices(list.data?.data ?? []);
}

function Filters({
  view,
  accounts,
  onApply,
}: {
  view: PatternView;
  accounts: readonly AccountChoice[];
  onApply: (view: PatternView) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState(view);
  const inverted = invertedRange(draft);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!inverted) onApply(draft);
  };
  return (
    <form className="coach-filters" role="search" aria-label="Pattern filters" onSubmit={submit} noValidate>
      {(['from', 'to'] as const).map((name) => (
        <div key={name}>
          <CFormLabel htmlFor={`${id}-${name}`} className="small mb-1">
            {name === 'from' ? 'Opened from' : 'Opened to'}
          </CFormLabel>
          <CFormInput
            id={`${id}-${name}`}
            type="date"
            size="sm"
            value={draft[name]}
            invalid={inverted}
            onChange={(e) => setDraft((d) => ({ ...d, [name]: e.target.value }))}
          />
        </div>
      ))}
      <div>
        <CFormLabel htmlFor={`${id}-account`} className="small mb-1">
          Account
        </CFormLabel>
        <CFormSelect
          id={`${id}-account`}
          size="sm"
          value={draft.accountId}
          onChange={(e) => setDraft((d) => ({ ...d, accountId: e.target.value }))}
        >
          <option value="">All accounts</option>
          {accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.label}
            </option>
          ))}
          {draft.accountId && !accounts.some((a) => a.id === draft.accountId) && (
            <option value={draft.accountId}>{draft.accountId}</option>
          )}
        </CFormSelect>
      </div>
      <div className="coach-filter-buttons">
        <CButton type="submit" color="primary" size="sm" disabled={inverted}>
          Apply filters
        </CButton>
        <CButton
          type="button"
          color="secondary"
          variant="outline"
          size="sm"
          onClick={() => {
            const cleared = { from: '', to: '', accountId: '' };
            setDraft(cleared);
            onApply(cleared);
          }}
        >
          Clear filters
        </CButton>
      </div>
      {inverted && (
        <p className="text-danger small mb-0 coach-filter-problem" role="alert">
          The ‘from’ day is after the ‘to’ day: pick a from day on or before the to day.
        </p>
      )}
    </form>
  );
}

function Compare({ label, flagged, others }: { label: string; flagged: ReactNode; others: ReactNode }) {
  return (
    <div className="coach-compare">
      <dt className="small text-body-secondary">{label}</dt>
      <dd className="mb-0">
        <span className="coach-compare-flagged">{flagged}</span>
        <span className="small text-body-secondary"> vs the others </span>
        <span>{others}</span>
      </dd>
    </div>
  );
}

function PatternCard({ result, view, platform }: { result: PatternResult; view: PatternView; platform: PlatformName }) {
  const name = PATTERN_LABELS[result.pattern];
  const titleId = useId();
  return (
    <CCard className="coach-pattern" role="region" aria-labelledby={titleId}>
      <CCardBody>
        <div className="d-flex justify-content-between align-items-baseline gap-2">
          <h2 id={titleId} className="h6 mb-1">
            {name}
          </h2>
          <span className={`coach-count ${result.count > 0 ? 'text-warning-emphasis' : 'text-body-secondary'}`}>
            {formatCount(result.count)} {result.count === 1 ? 'trade' : 'trades'}
          </span>
        </div>
        <p className="small text-body-secondary">{result.definition}</p>
        {result.count === 0 ? (
          // A cost needs flagged trades: a bare dash against the others' figure read as a broken value.
          <p className="small text-body-secondary mb-0">No trade flagged, so nothing to compare.</p>
        ) : (
          <dl className="mb-2">
            <Compare
              label="Net P/L"
              flagged={<Money figure={result.netPL} />}
              others={<Money figure={result.othersNetPL} />}
            />
            <Compare
              label="Average R"
              flagged={
                <span className={result.averageR === null ? '' : result.averageR < 0 ? 'text-danger' : ''}>
                  {formatR(result.averageR)}
                </span>
              }
              others={formatR(result.othersAverageR)}
            />
          </dl>
        )}
        {result.count > 0 && (
          // The trade list opens on the platform whose trades these are.
          <Link
            className="small"
            to={`${paths.trades}?${tradeListSearch(result.pattern, view)}`}
            state={platformState(platform)}
          >
            Show the {name.toLowerCase()} trades
          </Link>
        )}
      </CCardBody>
    </CCard>
  );
}

/** No flagged trade and nothing to compare them with: the range holds no closed trade. */
const noTrades = (results: readonly PatternResult[]) =>
  results.every((r) => r.count === 0 && r.netPL === null && r.othersNetPL === null);

const loading = (
  <div className="coach-loading" role="status" aria-label="Loading patterns">
    <CSpinner color="primary" aria-hidden="true" />
  </div>
);

/**
 * docs/PRODUCT.md, Coach: Patterns. The behaviour patterns of the chosen platform's trades over the range and
 * account, each with its definition (the trader's thresholds written in), its trades and their cost against the
 * others; the platform switch of the Overview and the trade list, and the coach's settings beside them.
 */
export function PatternsPage() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => patternViewFromParams(params), [params]);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // The platform the Overview and the trade list open on (the trader's default until one is chosen); a switch
  // clears the patterns shown, so another platform's never stand in for the new one's.
  const { platform, ready, scope, setPlatform } = usePlatformPaging(queryKeys.coach.patternsAll);
  const accounts = useAccountChoices(scope);
  const patterns = usePatterns(
    { ...patternQuery(view), ...scope.params },
    ready && scope.query !== null && !invertedRange(view),
  );
  const switchPlatform = (next: PlatformName) => {
    setPlatform(next);
    // The account chosen is one of the platform left.
    if (view.accountId) setParams(patternViewToParams({ ...view, accountId: '' }));
  };

  let body;
  if (!ready) body = loading;
  else if (scope.query === null)
    body = <NotConnectedState platform={platform} what="patterns" onShowOanda={() => switchPlatform('OANDA')} />;
  else if (patterns.isError)
    body = <LoadErrorState what="patterns" message={patterns.error.message} onRetry={() => void patterns.refetch()} />;
  else if (!patterns.data) body = loading;
  else if (noTrades(patterns.data))
    body = (
      <EmptyState
        title="No closed trades in this range"
        hint="Patterns are found in closed trades: sync or import trades, or widen the dates."
      />
    );
  else
    body = (
      <div className="coach-patterns">
        {patterns.data.map((result) => (
          <PatternCard key={result.pattern} result={result} view={view} platform={platform} />
        ))}
      </div>
    );

  return (
    <div className="coach-page">
      <div className="coach-toolbar">
        <Filters
          key={`${platform}\n${params.toString()}`}
          view={view}
          accounts={accounts}
          onApply={(next) => setParams(patternViewToParams(next))}
        />
        {/* The list screens' toolbar: the platform switch and the button side by side, the whole row on a phone. */}
        <div className="data-card-toolbar">
          <PlatformDropdown value={platform} onChange={switchPlatform} size="sm" />
          <CButton color="secondary" variant="outline" size="sm" onClick={() => setSettingsOpen(true)}>
            <CIcon icon={cilSettings} className="me-1" aria-hidden="true" />
            Coach settings
          </CButton>
        </div>
      </div>
      {body}
      {settingsOpen && <CoachSettingsDialog onClose={() => setSettingsOpen(false)} />}
    </div>
  );
}
