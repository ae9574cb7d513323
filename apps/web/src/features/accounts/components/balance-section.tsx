import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { BalanceHistory, BalanceResolution } from '@pipsense/contract';
import { LoadErrorState } from '../../../components/data/data-states';
import { EMPTY_CELL, formatDateTime, formatMoney } from '../../../components/data/format';
import { MoneyChart } from '../../../components/charts/money-chart';
import { MONEY_LINE_COLORS } from '../../../components/charts/money-lines';
import { balanceHistoryQuery, equityState, rebuildPolling } from '../../../lib/balance-history-query';
import { autoResolution, lastKnownEquity, RESOLUTION_LABELS } from '../model/account-money';
import { ChoiceButtons, MoneySection, SectionLoading } from './money-section';

/** What the section says when the equity line is not whole (docs/money.md, E(t)); nothing when it is. */
function equityNotice(history: BalanceHistory, polling: boolean): string | null {
  const state = equityState(history);
  if (state === 'unknown') return 'Equity between closes is unknown for this account: it has no candle source.';
  if (state === 'partial')
    return polling
      ? 'Equity is still being rebuilt from candles; the chart fills in as it completes.'
      : 'Equity is not known at some points: the equity line has gaps there.';
  return null;
}

const money = (amount: string | null | undefined, currency: string | null) =>
  amount ? formatMoney(amount, currency ?? '') : EMPTY_CELL;

function History({
  history,
  resolution,
  polling,
}: {
  history: BalanceHistory;
  resolution: BalanceResolution;
  polling: boolean;
}) {
  const { currency, points } = history;
  if (points.length === 0)
    return <p className="money-empty">No balance history yet: it starts with the first deposit or trade.</p>;
  const last = points.at(-1)!;
  const equity = lastKnownEquity(points);
  const notice = equityNotice(history, polling);
  const label =
    `Balance and equity over time, ${RESOLUTION_LABELS[resolution].toLowerCase()}, from ` +
    `${formatDateTime(points[0]!.time)} to ${formatDateTime(last.time)}: balance ending at ${money(last.balance, currency)}` +
    (equity ? `, equity at ${money(equity.equity, currency)}` : ', equity unknown');
  return (
    <>
      <dl className="stat-list">
        <div>
          <dt>Balance</dt>
          <dd>{money(last.balance, currency)}</dd>
        </div>
        <div>
          <dt>Equity{equity && equity !== last ? ` (${formatDateTime(equity.time)})` : ''}</dt>
          <dd>{money(equity?.equity, currency)}</dd>
        </div>
      </dl>
      {notice && (
        <p className="money-notice" role="status">
          {notice}
        </p>
      )}
      <MoneyChart points={points} label={label} />
      <div className="money-legend" aria-hidden="true">
        <span style={{ color: MONEY_LINE_COLORS.balance }}>Balance</span>
        <span style={{ color: MONEY_LINE_COLORS.equity }}>Equity</span>
      </div>
    </>
  );
}

/**
 * docs/PRODUCT.md, Account money: the balance and the equity over the account's whole history. The resolution opens at
 * each booking for a short history and a point a day for a long one (known from the daily history); the trader may
 * choose another.
 */
export function BalanceSection({ base, accountId }: { base: string; accountId: string }) {
  const [chosen, setChosen] = useState<BalanceResolution | null>(null);
  // The daily history tells how long the history is; it polls only as the history shown.
  const daily = useQuery({
    ...balanceHistoryQuery(base, accountId, 'day'),
    enabled: chosen === null,
    refetchInterval: false,
  });
  const resolution = chosen ?? (daily.data ? autoResolution(daily.data.points.length) : undefined);
  const options = balanceHistoryQuery(base, accountId, resolution ?? 'day');
  const history = useQuery({ ...options, enabled: resolution !== undefined });
  const updates = useQueryClient().getQueryState(options.queryKey)?.dataUpdateCount ?? 0;
  const failed = history.isError ? history : chosen === null && daily.isError ? daily : null;

  let body;
  if (failed)
    body = (
      <LoadErrorState what="balance history" message={failed.error.message} onRetry={() => void failed.refetch()} />
    );
  else if (!history.data || resolution === undefined) body = <SectionLoading what="balance history" />;
  else
    body = <History history={history.data} resolution={resolution} polling={rebuildPolling(history.data, updates)} />;

  return (
    <MoneySection
      title="Balance and equity"
      className="money-balance"
      toolbar={
        <ChoiceButtons label="Chart resolution" value={resolution} options={RESOLUTION_LABELS} onChange={setChosen} />
      }
    >
      {body}
    </MoneySection>
  );
}
