import type { LoggedRequest, OpenTradeRequest, WireAccountSummary, WireTrade } from '@pipsense/oanda-sim';
import type { ReceivedMail } from '../../apps/server/src/test/smtp';
import type { FaultRequest, PlantStep, SimEnv } from './sim-control';
import type { StackFacts } from './stack-facts';

async function call<T>(url: string, method = 'GET', body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A spec's handle on one of the stack's OANDA simulators (see sim-control.ts for the endpoints). */
export function simControl(facts: StackFacts, env: SimEnv) {
  const base = `${facts.controlUrl}/sims/${env}`;
  const id = encodeURIComponent;
  return {
    ...facts[env],
    summary: (accountId: string) => call<WireAccountSummary>(`${base}/summary/${id(accountId)}`),
    trades: (accountId: string, state: 'ALL' | 'OPEN' | 'CLOSED' = 'ALL') =>
      call<WireTrade[]>(`${base}/trades/${id(accountId)}?state=${state}`),
    openTrade: (accountId: string, request: OpenTradeRequest) =>
      call<WireTrade>(`${base}/trades/${id(accountId)}`, 'POST', request),
    closeTrade: (accountId: string, tradeId: string, units?: number) =>
      call<WireTrade>(
        `${base}/trades/${id(accountId)}/${id(tradeId)}/close`,
        'POST',
        units === undefined ? {} : { units },
      ),
    /** Deposits (amount > 0) or withdraws (amount < 0) now, as the broker's TRANSFER_FUNDS. */
    transferFunds: (accountId: string, amount: string, comment?: string) =>
      call<WireAccountSummary>(`${base}/transfers/${id(accountId)}`, 'POST', {
        amount,
        ...(comment ? { comment } : {}),
      }),
    /** The bid/mid/ask of an instrument at an instant (ms; default now). */
    price: (instrument: string, at?: number) =>
      call<{ bid: string; mid: string; ask: string }>(
        `${base}/price/${id(instrument)}${at === undefined ? '' : `?at=${at}`}`,
      ),
    /** Plants trades at past times, oldest first; answers the trade id of each opened key. */
    plant: (accountId: string, steps: PlantStep[]) =>
      call<Record<string, string>>(`${base}/plant/${id(accountId)}`, 'POST', { steps }),
    fault: (fault: FaultRequest) => call<{ pending: number }>(`${base}/faults`, 'POST', fault),
    resetFaults: () => call<{ pending: number }>(`${base}/faults`, 'DELETE'),
    requests: () => call<LoggedRequest[]>(`${base}/requests`),
    clearRequests: () => call<{ cleared: boolean }>(`${base}/requests`, 'DELETE'),
  };
}

/** The mails the stack's server sent to `address` (its loopback SMTP server received them), oldest first. */
export function mailsTo(facts: StackFacts, address: string): Promise<ReceivedMail[]> {
  return call<ReceivedMail[]>(`${facts.controlUrl}/mails?to=${encodeURIComponent(address)}`);
}
