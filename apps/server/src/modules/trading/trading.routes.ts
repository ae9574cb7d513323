import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountListQuery,
  accountListResponse,
  accountSyncResponse,
  candlesQuery,
  candlesResponse,
  exportTradesQuery,
  syncTradeQuery,
  tradeListQuery,
  tradeListResponse,
  tradeSyncResponse,
  type AccountSyncResult,
  type TradeSyncResult,
} from '@pipsense/contract';
import { plural } from '../../lib/text';
import { userId } from '../../plugins/auth';
import { rememberingQueryValidator } from '../../plugins/memo-validation';
import type { TradingService } from './trading.service';

const number = new Intl.NumberFormat('en-US');

/** What a response schema's serialiser made: JSON text (the zod serialiser never makes bytes). */
function jsonText(serialised: string | ArrayBuffer | Buffer): string {
  if (typeof serialised !== 'string') throw new Error('The response serialiser returned bytes instead of JSON text.');
  return serialised;
}

/** 'Synced 1,240 trades from 2 accounts: 12 new, 3 updated' */
export function tradeSyncMessage(r: TradeSyncResult): string {
  const removed = r.removed > 0 ? `, ${number.format(r.removed)} removed` : '';
  return `Synced ${plural(r.trades, 'trade')} from ${plural(r.accounts, 'account')}: ${number.format(r.created)} new, ${number.format(r.updated)} updated${removed}`;
}

export function accountSyncMessage(r: AccountSyncResult): string {
  return `Synced ${plural(r.accounts, 'account')}: ${number.format(r.created)} new, ${number.format(r.updated)} updated`;
}

/** SPEC §7 trading calls, plus candles for the trade-details chart. */
export const tradingRoutes: FastifyPluginAsyncZod<{ trading: TradingService }> = async (app, { trading }) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/api/v1/trade/sync_trade',
    { schema: { querystring: syncTradeQuery, response: { 200: tradeSyncResponse } } },
    async (request) => {
      const data = await trading.syncTrades(userId(request), { full: request.query.full });
      return { success: true, message: tradeSyncMessage(data), data };
    },
  );

  app.get(
    '/api/v1/trade/get_trade_history',
    {
      schema: { querystring: tradeListQuery, response: { 200: tradeListResponse } },
      validatorCompiler: rememberingQueryValidator(),
    },
    // Sent as bytes: a page is validated and serialised by the response schema once per list version, then served
    // from the cache as it was (trading.service.ts tradePageJson).
    async (request, reply) => {
      const { page, limit, ...filter } = request.query;
      const json = await trading.tradePageJson(userId(request), { page, limit }, filter, (result) =>
        jsonText(
          reply.serialize({
            success: true,
            message: result.total === 0 ? 'No trades found' : `${plural(result.total, 'trade')}`,
            ...result,
          }),
        ),
      );
      // Typed as the untyped reply: the payload is the response already serialised, not the response object.
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(json);
    },
  );

  // The filtered list as CSV, streamed: each batch is read from the database when the client has taken the last.
  app.get('/api/v1/trade/export_trades', { schema: { querystring: exportTradesQuery } }, async (request, reply) => {
    const { timeZone, ...filter } = request.query;
    const { fileName, chunks } = await trading.exportTrades(userId(request), filter, timeZone);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(chunks, { objectMode: false }));
  });

  app.get(
    '/api/v1/trade/candles',
    { schema: { querystring: candlesQuery, response: { 200: candlesResponse } } },
    async (request) => {
      const data = await trading.candles(userId(request), request.query);
      return {
        success: true,
        message: `${plural(data.candles.length, 'candle')} for ${data.instrument} ${data.granularity}`,
        data,
      };
    },
  );

  app.get('/api/v1/account/sync_account', { schema: { response: { 200: accountSyncResponse } } }, async (request) => {
    const data = await trading.syncAccounts(userId(request));
    return { success: true, message: accountSyncMessage(data), data };
  });

  app.get(
    '/api/v1/account/get_accounts',
    { schema: { querystring: accountListQuery, response: { 200: accountListResponse } } },
    async (request) => {
      const { page, limit, mode, platform } = request.query;
      const result = await trading.accountPage(userId(request), { page, limit }, { mode, platform });
      return {
        success: true,
        message: result.total === 0 ? 'No accounts found' : `${plural(result.total, 'account')}`,
        ...result,
      };
    },
  );
};
