import { describe, expect, it } from 'vitest';
import { percentOfInitial, RULE_LABELS, RULE_STATE_LABELS, type RuleStatus } from '@pipsense/contract';
import { fixtureChatData } from '../../../test/chat-fixture-data';
import { createRulesService } from '../../rules';
import type { RuleTradeFacts } from '../../rules/ports';
import type { RuleSetRow } from '../../rules/rules.repository';
import { createChatTools, type ToolContext } from '../tools/chat-tools';
import type { ChatRules } from '../tools/rule-status';
import { ruleTodayAnswer } from './rule-answers';
import { createBuiltinAnalyst } from './analyst';
import { money, pl, when } from './format';

/*
 * The rules answers of the built-in analyst (docs/rules.md, The assistant) on a real rules service over fixture
 * sources: every figure of an answer must be get_status's (the same service function the route calls), written by
 * format.ts; the cost of the breaks is summed here by hand, in ten-thousandths, from the fixture trades.
 */

const NOW = new Date('2026-11-05T12:00:00.000Z');
const ZONE = 'Europe/Prague';

interface Fixture extends RuleTradeFacts {
  state: string;
}
const fixtureTrade = (tradeId: string, open: string, pnl: string, more: Partial<Fixture> = {}): Fixture => ({
  tradeId,
  instrument: 'EUR_USD',
  price: '1.08000',
  initialUnits: '10000',
  realizedPL: pnl,
  financing: '0',
  openTime: `${open}:00.000Z`,
  closeTime: new Date(Date.parse(`${open}:00.000Z`) + 30 * 60_000).toISOString(),
  averageClosePrice: '1.08000',
  initialStopLossPrice: null,
  state: 'CLOSED',
  ...more,
});

/** FTMO on an EUR account; the personal rules on a USD account (five losses in a day) and an EUR one (four trades). */
const ACCOUNTS: Record<string, { currency: string; trades: Fixture[] }> = {
  'acct-ftmo': {
    currency: 'EUR',
    trades: [
      fixtureTrade('1001', '2026-11-02T08:00', '1000.00'),
      fixtureTrade('1002', '2026-11-03T08:00', '-600.00'),
      fixtureTrade('1003', '2026-11-04T08:00', '300.00'),
    ],
  },
  'acct-bust': {
    currency: 'USD',
    trades: [fixtureTrade('4001', '2026-11-03T08:00', '-6000.00')],
  },
  'acct-usd': {
    currency: 'USD',
    trades: [
      fixtureTrade('2001', '2026-11-03T08:00', '-100.25'),
      fixtureTrade('2002', '2026-11-03T09:00', '-50.10'),
      fixtureTrade('2003', '2026-11-03T10:00', '-20.05'),
      fixtureTrade('2004', '2026-11-03T11:00', '-10.00', { financing: '-0.30' }),
      // 100,000 units with a stop 0.01 away: 1,000 USD at risk, above 1 % of the balance.
      fixtureTrade('2005', '2026-11-03T12:00', '-5.50', { initialUnits: '100000', initialStopLossPrice: '1.07000' }),
    ],
  },
  'acct-eur': {
    currency: 'EUR',
    trades: [
      fixtureTrade('3001', '2026-11-04T08:00', '10.00'),
      fixtureTrade('3002', '2026-11-04T09:00', '20.00'),
      fixtureTrade('3003', '2026-11-04T10:00', '-5.00'),
      fixtureTrade('3004', '2026-11-04T11:00', '12.34', { financing: '-1.01' }),
    ],
  },
};

function memoryRepository() {
  const rows: RuleSetRow[] = [];
  return {
    list: (userId: string) => Promise.resolve(rows.filter((r) => r.user_id === userId)),
    find: (userId: string, id: string) => Promise.resolve(rows.find((r) => r.user_id === userId && r.id === id)),
    insert: (row: RuleSetRow) => Promise.resolve(void rows.push(row)),
    update: () => Promise.resolve(),
    remove: () => Promise.resolve(false),
    ofAccount: (userId: string, key: string) =>
      Promise.resolve(rows.filter((r) => r.user_id === userId && r.account_key === key)),
    // The answers read no alert.
    insertAlerts: () => Promise.resolve(new Set<string>()),
    markEmailed: () => Promise.resolve(),
    alerts: () => Promise.resolve([]),
    unreadCount: () => Promise.resolve(0),
    markRead: () => Promise.resolve(0),
  };
}

async function setup(sets: Array<{ accountId: string; name: string; preset: 'ftmo-2step-challenge' | 'personal' }>) {
  const rules = createRulesService({
    repository: memoryRepository(),
    now: () => NOW,
    sources: {
      dataVersion: () => Promise.resolve('fixture'),
      named: (_userId, accountId) =>
        Promise.resolve(ACCOUNTS[accountId] ? [{ accountKey: accountId, currency: ACCOUNTS[accountId].currency }] : []),
      trades: (_userId, key) => Promise.resolve(ACCOUNTS[key]?.trades ?? []),
      cashFlows: () => Promise.resolve([]),
      balanceHistory: () =>
        Promise.resolve({
          points: [{ time: '2026-11-02T00:00:00.000Z', balance: '100000', equity: null, equitySource: null }],
          equityComplete: true,
        }),
    },
  });
  for (const set of sets)
    await rules.create('u1', {
      ...set,
      rules: [],
      startTime: '2026-11-02T00:00:00.000Z',
      initialBalance: '100000',
    });
  const port: ChatRules = {
    ruleSets: (userId) => rules.list(userId),
    status: (userId, id) => rules.status(userId, id),
    breaks: (userId) => rules.breaks(userId, {}),
    // The trader named one account; the others are read by their login.
    accountAlias: (_userId, key) => Promise.resolve(key === 'acct-ftmo' ? 'FTMO Demo' : null),
  };
  const { data } = fixtureChatData();
  const tools = createChatTools(
    { ...data, accountTrades: (_userId, key) => Promise.resolve(ACCOUNTS[key]?.trades ?? []) },
    port,
  );
  const analyst = createBuiltinAnalyst(tools);
  const ctx: ToolContext = {
    userId: 'u1',
    mode: 'demo',
    instrument: 'EUR_USD',
    granularity: 'M5',
    timeZone: ZONE,
    now: NOW,
  };
  const ask = async (text: string, topic: 'trading' | 'accounts' = 'trading') =>
    (await analyst.answer(topic, text, ctx)).text;
  return { rules, ask, tools, ctx };
}

const FTMO = { accountId: 'acct-ftmo', name: 'FTMO 100k', preset: 'ftmo-2step-challenge' } as const;
const BUST = { accountId: 'acct-bust', name: 'FTMO 2nd try', preset: 'ftmo-2step-challenge' } as const;
const PERSONAL_USD = { accountId: 'acct-usd', name: 'My USD rules', preset: 'personal' } as const;
const PERSONAL_EUR = { accountId: 'acct-eur', name: 'My EUR rules', preset: 'personal' } as const;

const statusOf = async (rules: Awaited<ReturnType<typeof setup>>['rules'], name: string) => {
  const set = (await rules.list('u1')).find((s) => s.name === name)!;
  return { set, status: await rules.status('u1', set.id) };
};
const line = (status: RuleStatus, kind: RuleStatus['rules'][number]['kind']) =>
  status.rules.find((l) => l.kind === kind)!;

describe('the rules answers without a rule set', () => {
  it.each([
    'How much can I still lose today?',
    'Am I on track for my FTMO challenge?',
    'Which of my rules do I break most, and what did it cost?',
  ])('"%s" says how to create one on My Rules', async (question) => {
    const { ask } = await setup([]);
    const text = await ask(question);
    expect(text).toContain('You have no rule set yet.');
    expect(text).toContain('My Rules (/rules/my_rules)');
  });
});

describe('"How much can I still lose today?"', () => {
  it('gives each active set the status API figures: room in money and percent, floor, next reset in the zone', async () => {
    const { rules, ask } = await setup([FTMO, PERSONAL_USD]);
    const text = await ask('How much can I still lose today?');
    for (const name of [FTMO.name, PERSONAL_USD.name]) {
      const { set, status } = await statusOf(rules, name);
      expect(status.state === 'breached' || status.state === 'passed').toBe(false);
      const c = status.currency;
      const percent = percentOfInitial(status.today.remaining, set.initialBalance);
      expect(text).toContain(
        `Daily loss: ${money(status.today.remaining, c)} left today (${percent}% of the initial balance) above today's floor of ${money(status.today.floor, c)}`,
      );
      expect(text).toContain(`the day resets at ${when(status.today.end, ZONE)}`);
      const account = set.accountId === 'acct-ftmo' ? 'FTMO Demo (acct-ftmo)' : set.accountId;
      expect(text).toContain(`${name} (account ${account}): ${RULE_STATE_LABELS[status.state]}`);
    }
    const { status } = await statusOf(rules, FTMO.name);
    const max = line(status, 'max_loss');
    expect(text).toContain(`Max loss: ${money(max.remaining as string, 'EUR')} left`);
    expect(text).toContain(`above the floor of ${money(max.floor, 'EUR')}`);
    // The next reset at Prague's midnight, in the trader's zone.
    expect(when(status.today.end, ZONE)).toBe('2026-11-06 00:00 Europe/Prague');
  });

  it('answers paraphrases the same way, in a trading or an accounts chat', async () => {
    const { ask } = await setup([FTMO]);
    const expected = await ask('How much can I still lose today?');
    for (const q of [
      'how much more can i lose today',
      "What's my daily loss room?",
      'How far am I from the daily loss limit?',
      'how much is left to lose before the daily floor',
      'remaining daily drawdown?',
    ]) {
      expect(await ask(q)).toBe(expected);
      expect(await ask(q, 'accounts')).toBe(expected);
    }
  });
});

describe('"Am I on track for my FTMO challenge?"', () => {
  it("says the state and each rule's line with get_status's figures", async () => {
    const { rules, ask } = await setup([FTMO, PERSONAL_USD]);
    const text = await ask('Am I on track for my FTMO challenge?');
    const { status } = await statusOf(rules, FTMO.name);
    const target = line(status, 'profit_target');
    expect(text).toContain(`FTMO 100k (account FTMO Demo (acct-ftmo)): ${RULE_STATE_LABELS[status.state]}`);
    expect(text).toContain(
      `Profit target: ${pl(target.used as string, 'EUR')} of ${money(target.limit as string, 'EUR')} (${target.percentUsed}% of the target; not met yet)`,
    );
    expect(text).toContain(`Trading days: ${status.tradingDays.done} of ${status.tradingDays.required}.`);
    expect(text).toContain(`Daily loss: ${money(status.today.remaining, 'EUR')} left today`);
    expect(text).toContain(`Max loss: ${money(line(status, 'max_loss').remaining as string, 'EUR')} left`);
    // Only the FTMO set: the personal one is not asked about.
    expect(text).not.toContain(PERSONAL_USD.name);
  });

  it('says a breach, with the rule and its time; today leaves the breached set out', async () => {
    const { rules, ask } = await setup([BUST, PERSONAL_USD]);
    const { status } = await statusOf(rules, BUST.name);
    expect(status.state).toBe('breached');
    const breach = `Breached: ${RULE_LABELS[status.breach!.rule]} broke at ${when(status.breach!.time, ZONE)}`;
    expect(await ask('Am I on track for my FTMO challenge?')).toContain(`FTMO 2nd try (account acct-bust): ${breach}`);
    const today = await ask('How much can I still lose today?');
    expect(today).toContain(`Not counted: FTMO 2nd try (account acct-bust): ${breach}.`);
    expect(today).toContain('My USD rules (account acct-usd): On track.');
  });

  it("lists a personal set's count rules as My Rules does", async () => {
    const { rules, ask } = await setup([PERSONAL_USD]);
    const { status } = await statusOf(rules, PERSONAL_USD.name);
    const text = await ask('status of my rules');
    expect(text).toContain(`My USD rules (account acct-usd): ${RULE_STATE_LABELS[status.state]}`);
    for (const l of status.rules.filter((x) => x.unit === 'count'))
      expect(text).toContain(`${RULE_LABELS[l.kind]}: ${l.used} of ${l.limit}`);
  });

  it.each([
    'am i on track?',
    'Did I pass the FTMO evaluation yet',
    'status of my rules',
    'how is my prop firm challenge doing',
  ])('reads "%s" as the same question', async (q) => {
    const { ask } = await setup([FTMO]);
    expect(await ask(q)).toBe(await ask('Am I on track for my FTMO challenge?'));
  });
});

/** Ten-thousandths of a decimal string, to sum by hand. */
const units = (decimal: string) => Math.round(Number(decimal) * 10_000);
const fromUnits = (n: number) => (n / 10_000).toFixed(4);

describe('"Which of my rules do I break most, and what did it cost?"', () => {
  it('counts get_breaks per rule kind, most first, with the breaking trades’ P/L per currency summed exactly', async () => {
    const { rules, ask } = await setup([FTMO, PERSONAL_USD, PERSONAL_EUR]);
    const breaks = await rules.breaks('u1', {});
    expect(breaks.length).toBeGreaterThan(0);
    const text = await ask('Which of my rules do I break most, and what did it cost?');
    const kinds = [...new Set(breaks.map((b) => b.kind))];
    const counted = kinds
      .map((kind) => ({ kind, n: breaks.filter((b) => b.kind === kind).length }))
      .sort((a, b) => b.n - a.n);
    const listedKinds = [...text.matchAll(/^\d+\. ([^:]+):/gm)].map((m) => m[1]);
    expect(listedKinds).toEqual(counted.map((c) => RULE_LABELS[c.kind]));
    for (const { kind, n } of counted) {
      const trades = new Map(breaks.filter((b) => b.kind === kind).map((b) => [`${b.accountId}/${b.tradeKey}`, b]));
      const byCurrency = new Map<string, number>();
      for (const b of trades.values()) {
        const account = ACCOUNTS[b.accountId]!;
        const t = account.trades.find((x) => x.tradeId === b.tradeKey)!;
        byCurrency.set(
          account.currency,
          (byCurrency.get(account.currency) ?? 0) + units(t.realizedPL) + units(t.financing),
        );
      }
      const cost = [...byCurrency.keys()]
        .sort()
        .map((c) => pl(fromUnits(byCurrency.get(c)!), c))
        .join(' and ');
      expect(text).toContain(`${RULE_LABELS[kind]}: ${n} ${n === 1 ? 'break' : 'breaks'}, ${trades.size} `);
      expect(text).toContain(`, ${cost}`);
    }
    // Trades per day broke in both currencies: its cost is per currency, never added.
    expect(text).toMatch(/Trades per day: .* EUR and .* USD/);
    expect(text).toContain(`The rule you break most is ${RULE_LABELS[counted[0]!.kind]}`);
  });

  it.each([
    'what rules did I violate the most?',
    'my rule breaks: which cost me most',
    'How often do I breach my rules?',
  ])('reads "%s" as the same question', async (q) => {
    const { ask } = await setup([PERSONAL_USD]);
    expect(await ask(q)).toBe(await ask('Which of my rules do I break most, and what did it cost?'));
  });
});

describe('the get_rule_status tool (the LLM path)', () => {
  it("answers each set's status exactly as the status API gives it", async () => {
    const { rules, tools, ctx } = await setup([FTMO, PERSONAL_USD]);
    for (const topic of ['trading', 'accounts'] as const) {
      const { result } = await tools.run(topic, 'get_rule_status', {}, ctx);
      const sets = (result as { ruleSets: Array<{ id: string; status: RuleStatus; active: boolean }> }).ruleSets;
      expect(sets).toHaveLength(2);
      for (const s of sets) {
        expect(s.status).toEqual(await rules.status('u1', s.id));
        expect(s.active).toBe(true);
      }
    }
    const one = (await rules.list('u1'))[1]!;
    const { result } = await tools.run('trading', 'get_rule_status', { rule_set_id: one.id }, ctx);
    expect((result as { ruleSets: Array<{ id: string }> }).ruleSets.map((s) => s.id)).toEqual([one.id]);
    expect(tools.specs('trading').map((s) => s.name)).toEqual(
      expect.arrayContaining(['get_rule_status', 'get_rule_breaks']),
    );
    expect(tools.specs('candles').map((s) => s.name)).not.toContain('get_rule_status');
  });
});

describe('a room the status cannot tell', () => {
  it('says so instead of a figure', async () => {
    const { rules } = await setup([FTMO]);
    const { set, status } = await statusOf(rules, FTMO.name);
    const unknown: RuleStatus = {
      ...status,
      today: { ...status.today, remaining: null },
      rules: status.rules.map((l) =>
        l.kind === 'max_loss' && l.unit === 'money' ? { ...l, remaining: null, ok: null } : l,
      ),
    };
    const text = ruleTodayAnswer(
      { ruleSets: [{ ...set, account: set.accountId, status: unknown, active: true }] },
      ZONE,
    );
    expect(text).toContain("Daily loss: room not known (the equity is not known throughout) above today's floor of");
    expect(text).toContain('Max loss: room not known (the equity is not known throughout) above the floor of');
  });
});
