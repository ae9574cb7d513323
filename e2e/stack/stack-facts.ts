import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What a spec needs to know about the stack the webServer started: tokens, accounts, and where to drive it. */
export interface SimFacts {
  /** Base URL of the simulator (the server's OANDA_PRACTICE_URL or OANDA_LIVE_URL). */
  url: string;
  environment: 'practice' | 'live';
  /** The token the simulator accepts; the other simulator rejects it with 401. */
  token: string;
  accounts: { id: string; alias: string; currency: string; trades: number }[];
}

export interface StackFacts {
  /** The PipSense server the browser talks to. */
  baseURL: string;
  /** Where the stack's own control endpoints answer (see sim-control.ts). */
  controlUrl: string;
  practice: SimFacts;
  live: SimFacts;
  /**
   * A practice account with no generated history, seen only by its own token: a spec plants its book (trades at
   * chosen past times, sim-control.ts /plant) and connects a user with this token.
   */
  planted: { token: string; accountId: string };
  /**
   * A practice account with no generated history, seen only by its own token: a spec that opens and closes trades
   * now does it here, so the shared accounts' newest trades stay the generated ones (with candles around them).
   */
  scratch: { token: string; accountId: string };
  /** Fake OpenAI (ends in /v1, as OPENAI_BASE_URL) and fake Vertex AI; both have /_fake/* control endpoints. */
  openaiUrl: string;
  vertexUrl: string;
  /** The process that runs the stack, so a stale file can be told from a live one. */
  pid: number;
}

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** One file per port, so two e2e runs on different ports (E2E_PORT) do not read each other's stack. */
export function stackFactsPath(port: string | number): string {
  return join(repoRoot, '.test-results', `e2e-stack-${port}.json`);
}

/** The facts of the stack serving `baseURL` (the Playwright `baseURL` fixture). */
export function readStackFacts(baseURL: string | undefined): StackFacts {
  if (!baseURL) throw new Error('readStackFacts needs the baseURL of the e2e server');
  const port = new URL(baseURL).port;
  const path = stackFactsPath(port);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as StackFacts;
  } catch (error) {
    throw new Error(`No e2e stack facts at ${path}: is e2e/stack/start-stack.ts serving ${baseURL}?`, {
      cause: error,
    });
  }
}
