import { z } from 'zod';
import {
  RULE_KINDS,
  type RuleKind,
  type RulePresetId,
  type RuleStatus,
  type RuleTradeBreak,
  type StoredRuleSet,
} from '@pipsense/contract';
import { sumDecimals, sumsByCurrency } from '../../../domain/decimal';

/**
 * What the assistant reads of the rules module (docs/rules.md, The assistant), wired in app.ts to the rules service:
 * the very functions behind GET rules/get_rule_sets, get_status/:id and get_breaks. The assistant never computes a
 * rule itself.
 */
export interface ChatRules {
  ruleSets(userId: string): Promise<StoredRuleSet[]>;
  /** The status now, as GET rules/get_status/:id answers it. */
  status(userId: string, id: string): Promise<RuleStatus>;
  /** The trades that broke a trade-level rule of the user's sets, now, as GET rules/get_breaks answers it. */
  breaks(userId: string): Promise<RuleTradeBreak[]>;
  /** The trader's name for an account (its alias), when it has one. */
  accountAlias?(userId: string, accountKey: string): Promise<string | null>;
}

/** A trade of an account as the read side stores it: what its break cost is summed from. */
export interface BreakTrade {
  tradeId: string;
  realizedPL: string;
  financing: string;
  state: string;
}

export const ruleStatusArgs = z.object({
  rule_set_id: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe("Only this rule set, by its id. Default: every one of the trader's rule sets."),
});
export type RuleStatusArgs = z.input<typeof ruleStatusArgs>;

export const ruleBreaksArgs = z.object({});
export type RuleBreaksArgs = z.input<typeof ruleBreaksArgs>;

export interface RuleSetStatus {
  id: string;
  name: string;
  /** The account's key (docs/rules.md, API). */
  accountId: string;
  /** The account as the trader reads it: its alias with its login, or its login ('FTMO Demo (5100231)'). */
  account: string;
  preset: RulePresetId | null;
  startTime: string;
  initialBalance: string;
  /** Exactly as GET rules/get_status/:id answers it now; null while the set has not started. */
  status: RuleStatus | null;
  /** Started, and neither breached nor passed (docs/PRODUCT.md, Overview): the sets whose room today counts. */
  active: boolean;
}

export interface RuleStatusToolResult {
  ruleSets: RuleSetStatus[];
  note?: string;
}

/** One rule kind's breaks: how many, by how many trades, and the booked P/L of those trades per currency. */
interface RuleKindBreaks {
  kind: RuleKind;
  breaks: number;
  trades: number;
  /** P/L plus financing of the breaking trades (each once), summed exactly per account currency. */
  netPL: Array<{ currency: string; amount: string }>;
  /** Of those trades, the ones still open: only what they booked so far counts. */
  open: number;
  /** Breaking trades the read side no longer has (their P/L is not known). */
  missing: number;
}

export interface RuleBreaksToolResult {
  /** Most breaks first. */
  byKind: RuleKindBreaks[];
  /** Every breaking trade once, whatever it broke. */
  total: { breaks: number; trades: number; netPL: Array<{ currency: string; amount: string }> };
  ruleSets: number;
  note?: string;
}

/** With no rule set: where to make one (docs/PRODUCT.md, My Rules). */
const NO_RULE_SETS_NOTE =
  'You have no rule set yet. Create one on My Rules (/rules/my_rules): choose the account, then a preset such as FTMO 2-Step Challenge, or your own rules. The assistant then answers with its status.';

const isActive = (status: RuleStatus | null) =>
  status !== null && status.state !== 'breached' && status.state !== 'passed';

/** Each of the user's rule sets (or the one named) with its status as the status API gives it. */
export async function ruleStatusOf(
  rules: ChatRules,
  userId: string,
  now: Date,
  input: RuleStatusArgs,
): Promise<RuleStatusToolResult> {
  const args = ruleStatusArgs.parse(input);
  const sets = (await rules.ruleSets(userId)).filter((s) => !args.rule_set_id || s.id === args.rule_set_id);
  const ruleSets = await Promise.all(
    sets.map(async (set): Promise<RuleSetStatus> => {
      // Before its start a set has no status (the API answers 400): it waits.
      const status = Date.parse(set.startTime) > now.getTime() ? null : await rules.status(userId, set.id);
      const alias = (await rules.accountAlias?.(userId, set.accountId)) ?? null;
      // The key's last part is the login: OANDA's account id, or a MetaTrader login (trading/account-key.ts).
      const id = set.accountId.slice(set.accountId.lastIndexOf(':') + 1);
      return {
        id: set.id,
        name: set.name,
        accountId: set.accountId,
        account: alias ? `${alias} (${id})` : id,
        preset: set.preset,
        startTime: set.startTime,
        initialBalance: set.initialBalance,
        status,
        active: isActive(status),
      };
    }),
  );
  const note =
    ruleSets.length > 0
      ? undefined
      : args.rule_set_id
        ? `No rule set of yours has the id ${args.rule_set_id}.`
        : NO_RULE_SETS_NOTE;
  return { ruleSets, ...(note ? { note } : {}) };
}

const byCount = (a: RuleKindBreaks, b: RuleKindBreaks) =>
  b.breaks - a.breaks || RULE_KINDS.indexOf(a.kind) - RULE_KINDS.indexOf(b.kind);

/**
 * "Which of my rules do I break most, and what did it cost?": the breaks of GET rules/get_breaks counted per rule kind,
 * and the breaking trades' P/L read through the read side (`tradesOf`), each trade once per kind, summed exactly per
 * account currency (the set's status currency).
 */
export async function ruleBreaksOf(
  rules: ChatRules,
  tradesOf: (userId: string, accountKey: string) => Promise<BreakTrade[]>,
  userId: string,
  now: Date,
): Promise<RuleBreaksToolResult> {
  const { ruleSets } = await ruleStatusOf(rules, userId, now, {});
  if (ruleSets.length === 0)
    return { byKind: [], total: { breaks: 0, trades: 0, netPL: [] }, ruleSets: 0, note: NO_RULE_SETS_NOTE };
  const breaks = await rules.breaks(userId);
  const currencyOf = new Map(ruleSets.map((s) => [s.id, s.status?.currency ?? ''] as const));
  const accounts = [...new Set(breaks.map((b) => b.accountId))];
  const trades = new Map<string, BreakTrade>();
  for (const [account, list] of await Promise.all(accounts.map(async (a) => [a, await tradesOf(userId, a)] as const))) {
    for (const t of list) trades.set(`${account}\u0000${t.tradeId}`, t);
  }

  const costOf = (list: readonly RuleTradeBreak[]) => {
    const seen = new Map<string, RuleTradeBreak>();
    for (const b of list) seen.set(`${b.accountId}\u0000${b.tradeKey}`, b);
    const found = [...seen].flatMap(([key, b]) => {
      const t = trades.get(key);
      return t ? [{ b, t }] : [];
    });
    return {
      trades: seen.size,
      missing: seen.size - found.length,
      open: found.filter(({ t }) => t.state !== 'CLOSED').length,
      netPL: sumsByCurrency(
        found.map(({ b, t }) => ({
          currency: currencyOf.get(b.ruleSetId) ?? '',
          // What the trade books, P/L plus financing, as the rules read it (docs/rules.md, Inputs).
          amount: sumDecimals([t.realizedPL, t.financing]),
        })),
      ),
    };
  };

  const kinds = [...new Set(breaks.map((b) => b.kind))];
  const byKind = kinds
    .map((kind): RuleKindBreaks => {
      const list = breaks.filter((b) => b.kind === kind);
      return { kind, breaks: list.length, ...costOf(list) };
    })
    .sort(byCount);
  const all = costOf(breaks);
  return {
    byKind,
    total: { breaks: breaks.length, trades: all.trades, netPL: all.netPL },
    ruleSets: ruleSets.length,
    ...(breaks.length === 0 ? { note: 'No trade has broken a rule of your rule sets.' } : {}),
  };
}
