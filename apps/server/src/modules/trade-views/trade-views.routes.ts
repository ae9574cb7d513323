import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { exportTradesQuery, tradeListQuery, tradeListResponse } from '@pipsense/contract';
import { plural } from '../../lib/text';
import { userId } from '../../plugins/auth';
import { rememberingQueryValidator } from '../../plugins/memo-validation';
import type { TradeViews } from './trade-views';

/** What a response schema's serialiser made: JSON text (the zod serialiser never makes bytes). */
function jsonText(serialised: string | ArrayBuffer | Buffer): string {
  if (typeof serialised !== 'string') throw new Error('The response serialiser returned bytes instead of JSON text.');
  return serialised;
}

/** The trade list and its CSV export. */
export const tradeViewsRoutes: FastifyPluginAsyncZod<{ views: TradeViews }> = async (app, { views }) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/api/v1/trade/get_trade_history',
    {
      schema: { querystring: tradeListQuery, response: { 200: tradeListResponse } },
      validatorCompiler: rememberingQueryValidator(),
    },
    // Sent as bytes: a page is validated and serialised by the response schema once per list version, then served
    // from the cache as it was (trade-views.ts tradePageJson).
    async (request, reply) => {
      const { page, limit, ...filter } = request.query;
      const json = await views.tradePageJson(userId(request), { page, limit }, filter, (result) =>
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
    const { fileName, chunks } = await views.exportTrades(userId(request), filter, timeZone);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(chunks, { objectMode: false }));
  });
};
