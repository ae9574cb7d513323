import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { coachSettingsBody, coachSettingsResponse } from '@pipsense/contract';
import { userId } from '../../plugins/auth';
import type { CoachSettingsStore } from './coach-settings';

/** The coach's settings (docs/coach.md, Settings; contract coach.ts). */
export const coachSettingsRoutes: FastifyPluginAsyncZod<{ settings: CoachSettingsStore }> = async (
  app,
  { settings },
) => {
  app.addHook('onRequest', app.requireUser);

  app.get('/api/v1/coach/get_settings', { schema: { response: { 200: coachSettingsResponse } } }, async (request) => {
    const data = await settings.get(userId(request));
    return { success: true, message: 'Coach settings', data };
  });

  app.post(
    '/api/v1/coach/update_settings',
    { schema: { body: coachSettingsBody, response: { 200: coachSettingsResponse } } },
    async (request) => {
      const data = await settings.update(userId(request), request.body);
      return { success: true, message: 'Coach settings saved.', data };
    },
  );
};
