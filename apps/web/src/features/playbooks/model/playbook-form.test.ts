import { describe, expect, it } from 'vitest';
import { bodyOf, draftProblems, emptyDraft, instrumentCode, moved } from './playbook-form';

describe('the playbook draft', () => {
  it('starts from the usual groups and leaves blank rows out of the body', () => {
    const draft = emptyDraft();
    expect(draft.groups.map((g) => g.name)).toEqual(['Entry', 'Exit', 'Risk', 'Context']);
    draft.name = '  Breakout ';
    draft.groups[0]!.rules[0]!.text = ' Level ';
    draft.groups.push({ key: 'k', name: '', rules: [{ key: 'r', text: '  ' }] });
    const body = bodyOf(draft);
    expect(body.name).toBe('Breakout');
    expect(body.groups).toHaveLength(4);
    expect(body.groups![0]).toEqual({ name: 'Entry', rules: [{ text: 'Level' }] });
    expect(body.defaultRiskPct).toBeNull();
    expect(draftProblems(body)).toEqual({});
  });

  it("says the contract's messages by field", () => {
    const draft = { ...emptyDraft(), defaultRiskPct: 'abc' };
    expect(draftProblems(bodyOf(draft))).toMatchObject({ name: 'name is required' });
    expect(draftProblems(bodyOf(draft)).defaultRiskPct).toBeDefined();
  });

  it('moves a row one place, and not past either end', () => {
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('writes an instrument as the contract names it', () => {
    expect(instrumentCode(' eur/usd ')).toBe('EUR_USD');
    expect(instrumentCode('gbp-jpy')).toBe('GBP_JPY');
  });
});
