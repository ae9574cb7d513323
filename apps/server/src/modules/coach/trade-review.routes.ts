import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { reviewTradeBody, tradeKeyParams, tradeReviewResponse } from '@pipsense/contract';
import { userId } from '../../plugins/auth';
import type { TradeReviewService } from './trade-review.service';

/** A trade's review (docs/coach.md, Reviews; contract coach.ts). Another user's or an unknown trade: 404. */
export const tradeReviewRoutes: FastifyPluginAsyncZod<{ reviews: TradeReviewService }> = async (app, { reviews }) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/api/v1/coach/get_trade_review/:accountId/:tradeId',
    { schema: { params: tradeKeyParams, response: { 200: tradeReviewResponse } } },
    async (request) => {
      const data = await reviews.get(userId(request), request.params);
      const message =
        data.review === null ? 'No review yet' : data.stale ? 'Trade review (out of date)' : 'Trade review';
      return { success: true, message, data };
    },
  );

  app.post(
    '/api/v1/coach/review_trade/:accountId/:tradeId',
    { schema: { params: tradeKeyParams, body: reviewTradeBody, response: { 200: tradeReviewResponse } } },
    async (request) => ({
      success: true,
      message: 'Trade reviewed.',
      data: await reviews.review(userId(request), request.params, { byUser: true }),
    }),
  );
};
