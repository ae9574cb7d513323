import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, feedbackBody } from '@pipsense/contract';
import { userId } from '../../plugins/auth';
import type { SupportService } from './support.service';

export const supportRoutes: FastifyPluginAsyncZod<{ support: SupportService }> = async (app, { support }) => {
  app.addHook('onRequest', app.requireUser);

  app.post(
    '/api/v1/support/feedback',
    { schema: { body: feedbackBody, response: { 200: envelope } } },
    async (request) => {
      const { mailed } = await support.send(userId(request), request.body.message);
      return {
        success: true,
        message: mailed
          ? 'Thank you for your feedback! It has been sent to the support team.'
          : 'Thank you for your feedback! It has been saved for the team that runs this server.',
      };
    },
  );
};
