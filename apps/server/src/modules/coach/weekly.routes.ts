import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { weekParams, weeklyReviewResponse, weeklyReviewsResponse } from '@pipsense/contract';
import { userId } from '../../plugins/auth';
import type { WeeklyService } from './weekly-service';

/** The weekly reviews (docs/coach.md, Weekly review; contract coach.ts). */
export const weeklyRoutes: FastifyPluginAsyncZod<{ weekly: WeeklyService }> = async (app, { weekly }) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/api/v1/coach/get_weekly_reviews',
    { schema: { response: { 200: weeklyReviewsResponse } } },
    async (request) => {
      const data = await weekly.list(userId(request));
      return { success: true, message: 'Weekly reviews', data };
    },
  );

  app.get(
    '/api/v1/coach/get_weekly_review/:week',
    { schema: { params: weekParams, response: { 200: weeklyReviewResponse } } },
    async (request) => {
      const data = await weekly.get(userId(request), request.params.week);
      return { success: true, message: 'Weekly review', data };
    },
  );

  app.post(
    '/api/v1/coach/read_weekly_review/:week',
    { schema: { params: weekParams, response: { 200: weeklyReviewResponse } } },
    async (request) => {
      const data = await weekly.markRead(userId(request), request.params.week);
      return { success: true, message: 'Weekly review marked read.', data };
    },
  );
};
