import type { TradeListItem, TradeRuleBreak, TradeTag } from '@pipsense/contract';
import { initialRiskOf, maeOf, mfeOf, rMultipleOf, type RiskFacts } from '../../domain/risk';
import { toTradeItem } from '../trading';
import type { TradeListRow, TradeRow } from './trade-list.repository';
import type { ReviewFact } from './selection';

const riskFactsOf = (row: TradeRow): RiskFacts => ({
  instrument: row.instrument,
  initialUnits: row.initial_units,
  price: row.price,
  averageClosePrice: row.average_close_price,
  initialStopLossPrice: row.initial_stop_loss_price ?? null,
  maePrice: row.mae_price ?? null,
  mfePrice: row.mfe_price ?? null,
});

/**
 * Where a closed trade's excursions stand: null while open; 'pending' until the candles were read (or after a
 * failed read, which is retried); 'ready' or 'unavailable' once settled.
 */
function excursionState(row: TradeRow): TradeListItem['excursion'] {
  if (row.state !== 'CLOSED') return null;
  if (row.excursion_status === 'ready' || row.excursion_status === 'unavailable') return row.excursion_status;
  return 'pending';
}

/**
 * A list row: the trade, the trader's journal on it, its risk in R (domain/risk.ts), the rules it broke
 * (rule-breaks.ts), its playbook review and how many images it carries.
 */
export function toTradeListItem(
  row: TradeListRow,
  tags: readonly TradeTag[],
  ruleBreaks: readonly TradeRuleBreak[] = [],
  review?: ReviewFact,
  attachmentCount = 0,
): TradeListItem {
  const facts = riskFactsOf(row);
  const excursion = excursionState(row);
  const closed = row.state === 'CLOSED';
  // Added to the trade item, not spread into a new literal: V8 builds a literal spread with this many more fields
  // through a fresh chain of hidden classes per call (about 14 kB and 0.1 ms a row, measured on the export of
  // 100,000 trades; bench/README.md, "Results: `list`, with the playbook filters").
  return Object.assign(toTradeItem(row), {
    note: row.note ?? '',
    rating: row.rating === null || row.rating === undefined ? null : Number(row.rating),
    tags: [...tags],
    initialRisk: initialRiskOf(facts),
    rMultiple: closed ? rMultipleOf(facts) : null,
    mae: excursion === 'ready' ? maeOf(facts) : null,
    mfe: excursion === 'ready' ? mfeOf(facts) : null,
    excursion,
    ruleBreaks: [...ruleBreaks],
    playbookId: review?.playbookId ?? null,
    reviewed: review?.reviewed ?? false,
    followedAll: review?.followedAll ?? null,
    attachmentCount,
  });
}
