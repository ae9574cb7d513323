import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ImportUploadResponse } from '@pipsense/contract';
import { createTestApp, type TestApp } from '../../test/harness';
import type * as ImportPlan from './import-plan';

/*
 * The preview's plan runs on the parse thread (report-parse.worker.ts), never on the main thread: here the main
 * thread's planImport throws, and an upload still previews (the thread loads the real module).
 */
const planned = vi.hoisted(() => ({ onMain: 0 }));
vi.mock('./import-plan', async (original) => ({
  ...(await original<typeof ImportPlan>()),
  planImport: () => {
    planned.onMain += 1;
    throw new Error('planImport ran on the main thread');
  },
}));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the import plan', () => {
  it('is made on the parse thread', async () => {
    const { token } = await t.user();
    const data = new FormData();
    data.append('brokerTime', 'ny-close-eu');
    const bytes = readFileSync(new URL('./parse/fixtures/mt5-report.html', import.meta.url));
    data.append('file', new Blob([bytes]), 'report.html');
    const encoded = new Response(data);
    const res = await t.call(token, {
      method: 'POST',
      url: '/api/v1/import/upload',
      payload: Buffer.from(await encoded.arrayBuffer()),
      headers: { 'content-type': encoded.headers.get('content-type')! },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { preview } = res.json<ImportUploadResponse>();
    expect(preview).toMatchObject({ closedTrades: 10, brokerTime: 'ny-close-eu' });
    expect(planned.onMain).toBe(0);
  });
});
