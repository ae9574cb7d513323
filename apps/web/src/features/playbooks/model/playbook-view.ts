import type { Playbook } from '@pipsense/contract';

/** Percent of reviewed trades with every rule followed (80 = 80 %); null when none is reviewed. */
export const followRateOf = (counts: Playbook['counts']) =>
  counts.reviewed === 0 ? null : (counts.followed / counts.reviewed) * 100;

/** '1 rule', '12 rules'. */
export const countOf = (count: number, word: string) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? word : `${word}s`}`;
