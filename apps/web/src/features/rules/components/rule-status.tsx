import type { ReactNode } from 'react';
import { CAlert, CBadge, CProgress, CSpinner } from '@coreui/react';
import { useQuery } from '@tanstack/react-query';
import type { RuleLine, RuleStatus, StoredRuleSet } from '@pipsense/contract';
import { formatDateTime, formatMoney, formatSignedMoney } from '../../../components/data/format';
import { browserTimeZone } from '../../../lib/time-zone';
import { ruleStatusQuery } from '../api/rules-api';
import { formatPercent, lineOf, lineState, OTHER_KINDS, percentOfInitial, STATE_BADGE } from '../model/rule-lines';
import { RULE_LABELS } from '@pipsense/contract';

/** docs/rules.md, Equity between readings: on closed P/L only, a floating loss below a floor is never seen. */
const CLOSED_ONLY_NOTE = 'Closed P/L only: a breach by floating loss cannot be ruled out.';

/** The state badge, with the breaking rule and its time when breached. */
function StateBadge({ status }: { status: RuleStatus }) {
  const badge = STATE_BADGE[status.state];
  return (
    <span className="rule-state">
      <CBadge color={badge.color} className="rule-badge">
        {badge.text}
      </CBadge>
      {status.breach && (
        <span className="small text-danger">
          {RULE_LABELS[status.breach.rule]} at {formatDateTime(status.breach.time)}
        </span>
      )}
      {status.state === 'passed' && status.passedAt && (
        <span className="small text-body-secondary">at {formatDateTime(status.passedAt)}</span>
      )}
    </span>
  );
}

function Figure({ label, children, hint }: { label: string; children: ReactNode; hint?: ReactNode }) {
  return (
    <div className="rule-figure">
      <div className="rule-figure-label text-body-secondary small">{label}</div>
      <div className="rule-figure-value">{children}</div>
      {hint && <div className="rule-figure-hint text-body-secondary small">{hint}</div>}
    </div>
  );
}

/** A bar for how much of a limit or objective is used (percentUsed, 0 to 100 shown). */
function UsedBar({ line, label, tone }: { line: RuleLine; label: string; tone: 'loss' | 'objective' }) {
  const used = Math.min(100, Math.max(0, Number(line.percentUsed ?? 0)));
  const color = tone === 'objective' ? 'success' : used >= 80 ? 'danger' : used >= 50 ? 'warning' : 'success';
  return <CProgress thin value={used} color={color} className="mt-1" aria-label={label} />;
}

const heldMark = (ok: boolean | null) => {
  const state = lineState(ok);
  return <span className={`rule-mark rule-mark-${state}`}>{state}</span>;
};

function DailyLoss({ status, ruleSet }: { status: RuleStatus; ruleSet: StoredRuleSet }) {
  const line = lineOf(status.rules, 'daily_loss');
  if (!line || line.unit !== 'money') return null;
  const remaining = status.today.remaining ?? line.remaining;
  const percent = percentOfInitial(remaining, ruleSet.initialBalance);
  const zone = browserTimeZone();
  return (
    <Figure
      label="Room left today"
      hint={
        <>
          Daily floor {status.today.floor ? formatMoney(status.today.floor, status.currency) : '-'}; resets{' '}
          {formatDateTime(status.today.end)}
          {zone ? ` (${zone})` : ''}
        </>
      }
    >
      <span className="fw-semibold">{remaining ? formatMoney(remaining, status.currency) : '-'}</span>
      {percent !== null && (
        <span className="text-body-secondary"> · {formatPercent(percent)} of the initial balance</span>
      )}{' '}
      {heldMark(line.ok)}
      <UsedBar line={line} label="Daily loss used" tone="loss" />
    </Figure>
  );
}

function MaxLoss({ status, ruleSet }: { status: RuleStatus; ruleSet: StoredRuleSet }) {
  const line = lineOf(status.rules, 'max_loss');
  if (!line || line.unit !== 'money') return null;
  const percent = percentOfInitial(line.remaining, ruleSet.initialBalance);
  return (
    <Figure
      label="Room to the max-loss floor"
      hint={<>Floor {line.floor ? formatMoney(line.floor, status.currency) : '-'}</>}
    >
      <span className="fw-semibold">{line.remaining ? formatMoney(line.remaining, status.currency) : '-'}</span>
      {percent !== null && (
        <span className="text-body-secondary"> · {formatPercent(percent)} of the initial balance</span>
      )}{' '}
      {heldMark(line.ok)}
      <UsedBar line={line} label="Max loss used" tone="loss" />
    </Figure>
  );
}

function Target({ status }: { status: RuleStatus }) {
  const line = lineOf(status.rules, 'profit_target');
  if (!line || line.unit !== 'money') return null;
  return (
    <Figure
      label="Profit target"
      hint={line.limit ? <>Target {formatMoney(line.limit, status.currency)}</> : undefined}
    >
      <span className="fw-semibold">{line.used ? formatSignedMoney(line.used, status.currency) : '-'}</span>
      <span className="text-body-secondary"> · {formatPercent(line.percentUsed)} of the target</span>
      <UsedBar line={line} label="Progress to the target" tone="objective" />
    </Figure>
  );
}

function TradingDays({ status }: { status: RuleStatus }) {
  if (!lineOf(status.rules, 'min_trading_days')) return null;
  const { done, required } = status.tradingDays;
  return (
    <Figure label="Trading days">
      <span className="fw-semibold">
        {done} of {required}
      </span>{' '}
      {done >= required ? <span className="rule-mark rule-mark-held">done</span> : null}
    </Figure>
  );
}

function Consistency({ status }: { status: RuleStatus }) {
  const line = lineOf(status.rules, 'consistency');
  if (!line || line.unit !== 'percent') return null;
  return (
    <Figure label="Best-day share" hint={<>Limit {formatPercent(line.limit)}</>}>
      <span className="fw-semibold">{formatPercent(line.used)}</span> {heldMark(line.ok)}
    </Figure>
  );
}

/** The trade-level and personal limits, one line each. */
function OtherLines({ status }: { status: RuleStatus }) {
  const lines = status.rules.filter((line) => OTHER_KINDS.includes(line.kind));
  if (lines.length === 0) return null;
  return (
    <ul className="rule-other list-unstyled small mb-0" aria-label="Other rules">
      {lines.map((line, index) => (
        <li key={`${line.kind}-${index}`}>
          <span className="text-body-secondary">{RULE_LABELS[line.kind]}:</span>{' '}
          {line.unit === 'money'
            ? `${line.used ? formatMoney(line.used, status.currency) : '-'} of ${line.limit ? formatMoney(line.limit, status.currency) : '-'}`
            : line.unit === 'percent'
              ? `${formatPercent(line.used)} of ${formatPercent(line.limit)}`
              : `${line.used} of ${line.limit}`}{' '}
          {heldMark(line.ok)}
        </li>
      ))}
    </ul>
  );
}

/** docs/PRODUCT.md, My Rules: a set's status read at a glance. */
export function RuleStatusPanel({ ruleSet }: { ruleSet: StoredRuleSet }) {
  const status = useQuery(ruleStatusQuery(ruleSet.id));
  if (status.isError)
    return (
      <CAlert color="danger" className="py-2 mb-0" role="alert">
        The status could not be loaded: {status.error.message}
      </CAlert>
    );
  if (!status.data)
    return (
      <div className="rule-loading" role="status" aria-label={`Loading the status of ${ruleSet.name}`}>
        <CSpinner size="sm" color="primary" aria-hidden="true" />
      </div>
    );
  const data = status.data;
  return (
    <div className="rule-status">
      <StateBadge status={data} />
      {data.equityBasis === 'closed-only' && (
        <CAlert color="warning" className="py-2 my-2 small">
          {CLOSED_ONLY_NOTE}
        </CAlert>
      )}
      <div className="rule-figures">
        <DailyLoss status={data} ruleSet={ruleSet} />
        <MaxLoss status={data} ruleSet={ruleSet} />
        <Target status={data} />
        <TradingDays status={data} />
        <Consistency status={data} />
      </div>
      <OtherLines status={data} />
    </div>
  );
}
