import { RULE_PRESET_IDS, rulePresetSchema, ruleSetSchema } from '@pipsense/contract';
import { describe, expect, it } from 'vitest';
import { RULE_PRESETS, presetOf, ruleSetFromPreset } from './index';

/** The presets (docs/rules.md, Presets): one per contract id, each valid, with its source and assumptions. */
describe('rule presets', () => {
  it('has one preset per id, each valid against the contract', () => {
    expect(RULE_PRESETS.map((p) => p.id)).toEqual([...RULE_PRESET_IDS]);
    for (const preset of RULE_PRESETS) {
      const parsed = rulePresetSchema.parse(preset);
      expect(parsed.source, preset.id).not.toBe('');
      expect(parsed.source.includes('\n'), preset.id).toBe(false);
    }
  });

  it('lists an assumption wherever the reference marks a rule disputed or unknown', () => {
    expect(presetOf('ftmo-1step').assumptions.join(' ')).toMatch(/lock/);
    expect(presetOf('the5ers-high-stakes').assumptions.join(' ')).toMatch(/allowanceBase/);
    expect(presetOf('fundednext-stellar-2step').assumptions.join(' ')).toMatch(/nonzero_pnl/);
    expect(presetOf('fundingpips-2step').assumptions.join(' ')).toMatch(/allowanceBase/);
  });

  it('makes a rule set for an account and phase, a copy the caller may change', () => {
    const set = ruleSetFromPreset('ftmo-1step', {
      accountId: 'acc-1',
      startTime: '2026-01-05T08:00:00Z',
      initialBalance: '100000',
    });
    const parsed = ruleSetSchema.parse(set);
    expect(parsed).toMatchObject({ preset: 'ftmo-1step', name: 'FTMO 1-Step', startTime: '2026-01-05T08:00:00.000Z' });
    expect(set.rules).not.toBe(presetOf('ftmo-1step').rules);
    expect(() => presetOf('nope' as never)).toThrow(RangeError);
  });
});
