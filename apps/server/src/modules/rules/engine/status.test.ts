import { dayRecordSchema, RULE_KINDS, ruleEvaluationSchema, ruleSetSchema, ruleStatusSchema } from '@pipsense/contract';
import { describe, expect, it } from 'vitest';
import { inputs, point, trade } from '../../../test/rule-inputs';
import { evaluateRules, foldStatus, ruleSetFromPreset } from './index';

/** The status is a fold over day records (docs/rules.md, Status), and the answers fit the contract. */

const set = ruleSetFromPreset('ftmo-1step', {
  accountId: 'acc-1',
  startTime: '2026-01-05T08:00:00Z',
  initialBalance: '100000',
});
const data = inputs({
  trades: [
    trade('a', '2026-01-05T09:00:00Z', '2026-01-05T10:00:00Z', '2500'),
    trade('b', '2026-01-06T09:00:00Z', '2026-01-07T10:00:00Z', '-800', { riskAtOpen: '400' }),
    trade('c', '2026-01-08T09:00:00Z', null),
  ],
  points: [point('2026-01-06T12:00:00Z', '101000'), point('2026-01-08T12:00:00Z', '100900')],
});

describe('the status', () => {
  it('is the fold of the stored day records: the same answer without the trades', () => {
    const result = evaluateRules(set, data, '2026-01-08T15:00:00Z');
    const stored = JSON.parse(JSON.stringify(result.days)) as unknown[];
    const days = stored.map((d) => dayRecordSchema.parse(d));
    const folded = foldStatus(ruleSetSchema.parse(set), days, {
      currency: 'USD',
      equityBasis: 'samples+candles',
    });
    expect(folded).toEqual(result.status);
  });

  it('fits the contract: status, day records and breaks', () => {
    const result = evaluateRules(set, data, '2026-01-08T15:00:00Z');
    expect(ruleEvaluationSchema.parse(result)).toEqual(result);
    expect(ruleStatusSchema.parse(result.status).rules.map((r) => r.kind)).toEqual([
      'profit_target',
      'daily_loss',
      'max_loss',
      'consistency',
    ]);
    expect(result.status.rules.every((r) => RULE_KINDS.includes(r.kind))).toBe(true);
  });

  it('refuses a time before the start and an invalid rule set', () => {
    expect(() => evaluateRules(set, data, '2026-01-04T00:00:00Z')).toThrow(RangeError);
    expect(() => evaluateRules({ ...set, initialBalance: '-1' }, data, '2026-01-08T15:00:00Z')).toThrow(
      /initialBalance/,
    );
  });
});
