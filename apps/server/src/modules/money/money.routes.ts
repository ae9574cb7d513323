import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  balanceHistoryParams,
  balanceHistoryQuery,
  balanceHistoryResponse,
  returnsQuery,
  returnsResponse,
} from '@pipsense/contract';
import { plural } from '../../lib/text';
import { userId } from '../../plugins/auth';
import type { MoneyService } from './money.service';
import { historyJson } from './history-json';

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
      const data = await money.balanceColumns(userId(request), request.params.accountId, request.query);
      const message = `${plural(data.length, 'point')}${data.equityComplete ? '' : '; equity not complete'}`;
      // Typed as the untyped reply: the payload is the response already serialised (history-json.ts).
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
