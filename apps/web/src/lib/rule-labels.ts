import { RULE_LABELS, type Rule } from '@pipsense/contract';
import { formatDecimal } from '../components/data/format';

/**
 * A trade-level rule with its limit, as a trade that broke it names it: 'Trades per day (max 3)', 'Risk per trade
 * (max 1 % of the balance)', 'Risk per trade (max 500.00)', 'No weekend holding'. Other rules: their label alone.
 */
export function ruleWithLimit(rule: Rule): string {
  const label = RULE_LABELS[rule.kind];
  switch (rule.kind) {
    case 'max_trades_per_day':
    case 'max_consecutive_losses':
      return `${label} (max ${rule.params.max})`;
    case 'max_risk_per_trade': {
      const { pct, amount, basis } = rule.params;
      if (pct !== undefined)
        return `${label} (max ${pct} % of the ${basis === 'initial' ? 'initial balance' : 'balance'})`;
      return amount === undefined ? label : `${label} (max ${formatDecimal(amount, 2)})`;
    }
    default:
      return label;
  }
}
