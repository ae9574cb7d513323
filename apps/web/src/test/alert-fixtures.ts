import { readAlertsResponse, ruleAlertsResponse, type RuleAlert } from '@pipsense/contract';

const GET_ALERTS = 'GET /api/v1/rules/get_alerts';
export const READ_ALERTS = 'POST /api/v1/rules/read_alerts';

/** An unread alert: 80 % of FTMO's 5,000 USD daily loss used. */
export function ruleAlert(overrides: Partial<RuleAlert> = {}): RuleAlert {
  return {
    id: 'al-1',
    ruleSetId: 'rs-1',
    ruleSetName: 'FTMO challenge',
    accountId: 'mt5-5100231',
    kind: 'daily_loss',
    threshold: 80,
    percentUsed: 82.4,
    day: '2026-11-27',
    time: '2026-11-27T09:05:00.000Z',
    currency: 'USD',
    limit: '5000.0000',
    used: '4120.0000',
    remaining: '880.0000',
    message: 'FTMO challenge: 82.4 % of the daily loss used (4,120.00 of 5,000.00 USD); 880.00 USD left today.',
    readAt: null,
    ...overrides,
  };
}

const alertsBody = (alerts: RuleAlert[]) =>
  ruleAlertsResponse.parse({
    success: true,
    message: 'Alerts',
    data: { alerts, unread: alerts.filter((a) => a.readAt === null).length },
  });

const readBody = (read: number) => readAlertsResponse.parse({ success: true, message: 'Marked read', data: { read } });

/**
 * The alerts routes over a list held like the server's: read_alerts marks the named ones (or every unread one) read,
 * and the next get_alerts answers so.
 */
export function alertRoutes(initial: RuleAlert[]) {
  let alerts = initial;
  return {
    [GET_ALERTS]: () => ({ status: 200, body: alertsBody(alerts) }),
    [READ_ALERTS]: (call: { body: Record<string, unknown> | undefined }) => {
      const ids = call.body?.ids as string[] | undefined;
      let read = 0;
      alerts = alerts.map((a) => {
        if (a.readAt !== null || (ids && !ids.includes(a.id))) return a;
        read += 1;
        return { ...a, readAt: '2026-11-27T09:30:00.000Z' };
      });
      return { status: 200, body: readBody(read) };
    },
  };
}
