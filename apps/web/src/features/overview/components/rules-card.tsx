import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { CBadge, CCard, CCardBody, CProgress } from '@coreui/react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { percentOfInitial, type RuleStatus, type StoredRuleSet } from '@pipsense/contract';
import { formatMoney, formatSignedMoney } from '../../../components/data/format';
import { formatPercent, lineOf, STATE_BADGE } from '../../../components/data/rule-figures';
import { platformScope } from '../../../components/data/platform-scope';
import { paths } from '../../../config/paths';
import { accountChoices } from '../../../lib/account-choices';
import { accountsOfPlatformQuery } from '../../../lib/accounts-query';
import { ruleSetsQuery, ruleStatusQuery } from '../../../lib/rules-query';
import { browserTimeZone } from '../../../lib/time-zone';
import { formatReset, isActive } from '../model/rules-card';
import './rules-card.css';

/** The platforms whose accounts a rule set can watch, as My Rules names them. */
const SCOPES = [platformScope('OANDA'), platformScope('MetaTrader')].filter((scope) => scope.base !== null);

function Figure({
  label,
  children,
  hint,
  wide = false,
}: {
  label: string;
  children: ReactNode;
  hint?: ReactNode;
  wide?: boolean;
}) {
  return (
    <div className={`overview-rules-figure${wide ? ' overview-rules-wide' : ''}`}>
      <div className="overview-rules-label">{label}</div>
      <div className="overview-rules-value">{children}</div>
      {hint && <div className="overview-rules-hint">{hint}</div>}
    </div>
  );
}

const money = (amount: string | null | undefined, currency: string) => (amount ? formatMoney(amount, currency) : '-');
const ofInitial = (amount: string | null | undefined, set: StoredRuleSet) => {
  const percent = percentOfInitial(amount, set.initialBalance);
  return percent === null ? null : <span className="overview-rules-percent"> · {formatPercent(percent)}</span>;
};

/** A set the card lists: active with its status, or with the failure of its status. */
interface Row {
  set: StoredRuleSet;
  status: RuleStatus | null;
  error: string | null;
}

/** One active set: its state, today's room with the floor and the next reset, the max-loss room, target and days. */
function RuleSetSummary({
  ruleSet,
  account,
  status,
  timeZone,
}: {
  ruleSet: StoredRuleSet;
  account: string;
  status: RuleStatus;
  timeZone: string;
}) {
  const badge = STATE_BADGE[status.state];
  const c = status.currency;
  const daily = lineOf(status.rules, 'daily_loss');
  const max = lineOf(status.rules, 'max_loss');
  const target = lineOf(status.rules, 'profit_target');
  const days = lineOf(status.rules, 'min_trading_days');
  const titleId = `overview-rules-${ruleSet.id}`;
  return (
    <li className="overview-rules-set" aria-labelledby={titleId}>
      <div className="overview-rules-title">
        <span id={titleId} className="fw-semibold">
          {ruleSet.name}
        </span>
        <span className="overview-rules-account">{account}</span>
        <CBadge color={badge.color}>{badge.text}</CBadge>
      </div>
      <div className="overview-rules-figures">
        {daily && (
          <Figure
            label="Left to lose today"
            wide
            hint={
              <>
                Floor {money(status.today.floor, c)} · resets {formatReset(status.today.end, timeZone)} ({timeZone})
              </>
            }
          >
            <span className="fw-semibold">{money(status.today.remaining, c)}</span>
            {ofInitial(status.today.remaining, ruleSet)}
          </Figure>
        )}
        {max?.unit === 'money' && (
          <Figure label="To the max-loss floor" hint={<>Floor {money(max.floor, c)}</>}>
            <span className="fw-semibold">{money(max.remaining, c)}</span>
            {ofInitial(max.remaining, ruleSet)}
          </Figure>
        )}
        {target?.unit === 'money' && (
          <Figure label="Profit target" hint={<>Target {money(target.limit, c)}</>}>
            <span className="fw-semibold">{target.used ? formatSignedMoney(target.used, c) : '-'}</span>
            <span className="overview-rules-percent"> · {formatPercent(target.percentUsed)}</span>
            <CProgress
              thin
              color="success"
              className="mt-1"
              value={Math.min(100, Math.max(0, Number(target.percentUsed ?? 0)))}
              aria-label={`Progress to the target of ${ruleSet.name}`}
            />
          </Figure>
        )}
        {days && (
          <Figure label="Trading days">
            <span className="fw-semibold">
              {status.tradingDays.done} of {status.tradingDays.required}
            </span>
          </Figure>
        )}
      </div>
    </li>
  );
}

/**
 * docs/PRODUCT.md, Overview, Rules: every active rule set at a glance, with a link to My Rules. Nothing without an
 * active set (none at all, none started yet, or each breached or passed).
 */
export function RulesCard() {
  // The zone the Overview's charts count days and hours in.
  const timeZone = browserTimeZone() ?? 'UTC';
  const sets = useQuery(ruleSetsQuery());
  // A set starting later has no status yet (the route answers 400 before the start): when the card was opened.
  const [openedAt] = useState(() => Date.now());
  const started = (sets.data ?? []).filter((set) => Date.parse(set.startTime) <= openedAt);
  const statuses = useQueries({ queries: started.map((set) => ruleStatusQuery(set.id)) });
  const accountLists = useQueries({
    queries: SCOPES.map((scope) => accountsOfPlatformQuery(scope.base ?? '', scope.params.platform)),
  });
  const accounts = accountChoices(accountLists.flatMap((list) => list.data?.data ?? []));

  const frame = (body: ReactNode) => (
    <CCard className="overview-rules mb-3" role="region" aria-labelledby="overview-rules-heading">
      <CCardBody>
        <div className="overview-rules-head">
          <h2 id="overview-rules-heading" className="h6 mb-0">
            Rules
          </h2>
          <Link to={paths.rules} className="small">
            Open My Rules
          </Link>
        </div>
        {body}
      </CCardBody>
    </CCard>
  );

  if (sets.isError)
    return frame(
      // A status line, not an alert: the Overview's own failures keep the alert role.
      <p className="overview-rules-error text-danger small mb-0 mt-2">
        Your rule sets could not be loaded: {sets.error.message}
      </p>,
    );
  const rows = started.flatMap((set, index): Row[] => {
    const status = statuses[index]!;
    if (status.isError) return [{ set, status: null, error: status.error.message }];
    return status.data && isActive(status.data) ? [{ set, status: status.data, error: null }] : [];
  });
  if (rows.length === 0) return null;
  return frame(
    <ul className="overview-rules-list">
      {rows.map((row) =>
        row.status ? (
          <RuleSetSummary
            key={row.set.id}
            ruleSet={row.set}
            account={accounts.find((a) => a.id === row.set.accountId)?.label ?? row.set.accountId}
            status={row.status}
            timeZone={timeZone}
          />
        ) : (
          <li key={row.set.id} className="overview-rules-set">
            <p className="overview-rules-error text-danger small mb-0">
              The status of {row.set.name} could not be loaded: {row.error}
            </p>
          </li>
        ),
      )}
    </ul>,
  );
}
