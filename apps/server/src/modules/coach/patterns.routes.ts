import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { patternsQuery, patternsResponse } from '@pipsense/contract';
import { plural } from '../../lib/text';
import { userId } from '../../plugins/auth';
import type { CoachPatterns } from './patterns';

/** The behaviour patterns with their cost (docs/coach.md, Patterns; contract coach.ts). */
export const coachPatternsRoutes: FastifyPluginAsyncZod<{ patterns: CoachPatterns }> = async (app, { patterns }) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/api/v1/coach/get_patterns',
    { schema: { querystring: patternsQuery, response: { 200: patternsResponse } } },
    async (request) => {
      const data = await patterns.patterns(userId(request), request.query);
      const flagged = data.reduce((sum, p) => sum + (p.count > 0 ? 1 : 0), 0);
      return {
        success: true,
        message: flagged === 0 ? 'No behaviour pattern in these trades' : `${plural(flagged, 'pattern')} found`,
        data,
      };
    },
  );
};
