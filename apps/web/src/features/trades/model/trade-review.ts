import type { Playbook, TradePlaybook } from '@pipsense/contract';

/*
 * A trade's review against its playbook (docs/review.md, Playbooks and reviews): which rules show, grouped, and the
 * state the trade is in.
 */

interface ReviewRule {
  id: string;
  text: string;
  retired: boolean;
}
export interface ReviewGroup {
  name: string;
  rules: ReviewRule[];
}

/**
 * The checklist of the chosen playbook: the stored review's rules when the trade is still on that playbook (its
 * retired ones too, marked), else the playbook's current rules.
 */
export function reviewGroups(stored: TradePlaybook | undefined, playbook: Playbook | undefined): ReviewGroup[] {
  if (!playbook) return [];
  if (stored && stored.playbookId === playbook.id && stored.rules.length > 0) {
    const groups: ReviewGroup[] = [];
    for (const rule of stored.rules) {
      let group = groups.find((g) => g.name === rule.groupName);
      if (!group) groups.push((group = { name: rule.groupName, rules: [] }));
      group.rules.push({ id: rule.id, text: rule.text, retired: rule.retired });
    }
    // A rule written after the review is on the playbook but not in the stored review: it shows unticked.
    for (const g of playbook.groups)
      for (const r of g.rules)
        if (!stored.rules.some((s) => s.id === r.id)) {
          let group = groups.find((x) => x.name === g.name);
          if (!group) groups.push((group = { name: g.name, rules: [] }));
          group.rules.push({ id: r.id, text: r.text, retired: false });
        }
    return groups;
  }
  return playbook.groups.map((g) => ({
    name: g.name,
    rules: g.rules.map((r) => ({ id: r.id, text: r.text, retired: false })),
  }));
}

export type ReviewState = 'none' | 'unreviewed' | 'followed' | 'broke';

/** The state a trade's row and details show. */
export function reviewState(trade: { playbookId: string | null; reviewed: boolean; followedAll: boolean | null }) {
  if (trade.playbookId === null) return 'none';
  if (!trade.reviewed || trade.followedAll === null) return 'unreviewed';
  return trade.followedAll ? 'followed' : 'broke';
}

export const REVIEW_BADGE: Record<Exclude<ReviewState, 'none'>, { text: string; color: string }> = {
  followed: { text: 'Followed all', color: 'success' },
  broke: { text: 'Broke a rule', color: 'danger' },
  unreviewed: { text: 'Not reviewed', color: 'secondary' },
};
