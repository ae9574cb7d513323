import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SYNC_INTERVAL_LABELS, syncScheduleBody, syncStatusResponse } from '@pipsense/contract';
import { userId } from '../../plugins/auth';
import type { SyncJobs } from './sync-jobs.service';

/** The background sync's status (polled by the Trades and Accounts screens) and the schedule (Settings). */
export const syncRoutes: FastifyPluginAsyncZod<{ jobs: Pick<SyncJobs, 'status' | 'setSchedule'> }> = async (
  app,
  { jobs },
) => {
  app.addHook('onRequest', app.requireUser);

  app.get('/api/v1/sync/status', { schema: { response: { 200: syncStatusResponse } } }, async (request) => ({
    success: true,
    message: 'Sync status loaded.',
    data: await jobs.status(userId(request)),
  }));

  app.post(
    '/api/v1/sync/schedule',
    { schema: { body: syncScheduleBody, response: { 200: syncStatusResponse } } },
    async (request) => ({
      success: true,
      message: `Background sync: ${SYNC_INTERVAL_LABELS[request.body.interval]}.`,
      data: await jobs.setSchedule(userId(request), request.body.interval),
    }),
  );
};
