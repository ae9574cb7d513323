import { describe, expect, it } from 'vitest';
import { RULE_KINDS, ruleSchema } from '@pipsense/contract';
import { draftFromRules, newRuleDraft, refusalOf, rulesFromDraft } from './rule-form';

describe('the rule form', () => {
  it('gives back every kind’s stored rule unchanged, and a valid new rule of every kind', () => {
    const fresh = rulesFromDraft({ rules: RULE_KINDS.map(newRuleDraft), resetTime: '17:00', zone: 'America/New_York' });
    expect(fresh.map((rule) => rule.kind)).toEqual([...RULE_KINDS]);
    const stored = fresh.map((rule) => ruleSchema.parse(rule));
    expect(rulesFromDraft(draftFromRules(stored))).toEqual(stored);
    // Only the rules that take a day name it.
    expect(stored.filter((rule) => 'zone' in rule.params).map((rule) => rule.kind)).toEqual([
      'daily_loss',
      'max_loss',
      'min_trading_days',
      'consistency',
      'profitable_days',
      'max_trades_per_day',
      'max_consecutive_losses',
    ]);
  });

  it('sends what is not a number as typed, leaves out what is empty, and names the rule the server refused', () => {
    const draft = draftFromRules([ruleSchema.parse({ kind: 'max_trades_per_day', params: { max: 3 } })]);
    draft.rules[0]!.values.max = '';
    expect(rulesFromDraft(draft)).toEqual([{ kind: 'max_trades_per_day', effect: 'fail', params: {} }]);
    draft.rules[0]!.values.max = 'three';
    const rules = rulesFromDraft(draft);
    expect(rules).toEqual([{ kind: 'max_trades_per_day', effect: 'fail', params: { max: 'three' } }]);
    expect(refusalOf(rules, 'max must be a whole number of 0 or more')).toEqual({
      kind: 'max_trades_per_day',
      message: 'Trades per day: max must be a whole number of 0 or more',
    });
  });
});
