import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type BalanceHistory,
  balanceHistoryParams,
  balanceHistoryQuery,
  balanceHistoryResponse,
  returnsQuery,
  returnsResponse,
} from '@pipsense/contract';
import { plural } from '../../lib/text';
import { userId } from '../../plugins/auth';
import type { MoneyService } from './money.service';

/**
 * The history's response as JSON text, written here rather than through the response schema: a history holds up to
 * 200,000 points, and checking each against the schema costs more than computing them. Every point's fields are an
 * ISO time from Date, decimal strings from domain/money.ts, null or a word of the schema's enum: none needs escaping.
 */
function historyJson(message: string, data: BalanceHistory): string {
  const points = data.points.map(
    (p) =>
      `{"time":"${p.time}","balance":"${p.balance}","equity":${p.equity === null ? 'null' : `"${p.equity}"`},"equitySource":${p.equitySource === null ? 'null' : `"${p.equitySource}"`}}`,
  );
  return `{"success":true,"message":${JSON.stringify(message)},"data":{"currency":${JSON.stringify(data.currency)},"points":[${points.join(',')}],"equityComplete":${data.equityComplete}}}`;
}

/** Balance and equity over time and returns of one of the user's accounts (docs/PRODUCT.md, docs/money.md). */
export const moneyRoutes: FastifyPluginAsyncZod<{ money: MoneyService }> = async (app, { money }) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/api/v1/money/get_balance_history/:accountId',
    {
      schema: {
        params: balanceHistoryParams,
        querystring: balanceHistoryQuery,
        response: { 200: balanceHistoryResponse },
      },
    },
    async (request, reply) => {
      const data = await money.balanceHistory(userId(request), request.params.accountId, request.query);
      const message = `${plural(data.points.length, 'point')}${data.equityComplete ? '' : '; equity not complete'}`;
      // Typed as the untyped reply: the payload is the response already serialised (historyJson).
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(historyJson(message, data));
    },
  );

  app.get(
    '/api/v1/money/get_returns',
    { schema: { querystring: returnsQuery, response: { 200: returnsResponse } } },
    async (request) => {
      const data = await money.returns(userId(request), request.query);
      return { success: true, message: `Time-weighted return ${data.total} %`, data };
    },
  );
};
