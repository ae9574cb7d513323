import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountListQuery,
  accountListResponse,
  accountSyncResponse,
  balanceOperationsParams,
  balanceOperationsQuery,
  balanceOperationsResponse,
  candlesQuery,
  candlesResponse,
  cashFlowsQuery,
  cashFlowsResponse,
  replayParams,
  replayQuery,
  replayResponse,
  syncTradeQuery,
  tradeSyncResponse,
  type AccountSyncResult,
  type TradeSyncResult,
} from '@pipsense/contract';
import { plural } from '../../lib/text';
import { userId } from '../../plugins/auth';
import type { TradingService } from './trading.service';

const number = new Intl.NumberFormat('en-US');

/** 'Synced 1,240 trades from 2 accounts: 12 new, 3 updated' */
function tradeSyncMessage(r: TradeSyncResult): string {
  const removed = r.removed > 0 ? `, ${number.format(r.removed)} removed` : '';
  return `Synced ${plural(r.trades, 'trade')} from ${plural(r.accounts, 'account')}: ${number.format(r.created)} new, ${number.format(r.updated)} updated${removed}`;
}

function accountSyncMessage(r: AccountSyncResult): string {
  return `Synced ${plural(r.accounts, 'account')}: ${number.format(r.created)} new, ${number.format(r.updated)} updated`;
}

/** The trading calls (docs/PRODUCT.md, HTTP calls), plus candles for the trade-details chart and the cash flows. */
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

  app.get(
    '/api/v1/trade/get_replay/:accountId/:tradeId',
    { schema: { params: replayParams, querystring: replayQuery, response: { 200: replayResponse } } },
    async (request) => {
      const data = await trading.replay(userId(request), request.params, request.query);
      return {
        success: true,
        message: `${plural(data.candles.length, 'candle')} of ${data.instrument} ${data.granularity} and ${plural(data.events.length, 'event')}`,
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

  app.get(
    '/api/v1/account/get_balance_operations/:accountId',
    {
      schema: {
        params: balanceOperationsParams,
        querystring: balanceOperationsQuery,
        response: { 200: balanceOperationsResponse },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const result = await trading.balanceOperationPage(userId(request), request.params.accountId, { page, limit });
      return {
        success: true,
        message: result.total === 0 ? 'No balance operations stored' : plural(result.total, 'balance operation'),
        ...result,
      };
    },
  );

  app.get(
    '/api/v1/money/get_cash_flows',
    { schema: { querystring: cashFlowsQuery, response: { 200: cashFlowsResponse } } },
    async (request) => {
      const data = await trading.cashFlowList(userId(request), request.query);
      return {
        success: true,
        message: data.length === 0 ? 'No cash flows stored' : plural(data.length, 'cash flow'),
        data,
      };
    },
  );
};
