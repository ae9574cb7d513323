import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bulkAssignBody,
  bulkAssignResponse,
  missedTradeBody,
  missedTradeResponse,
  missedTradesQuery,
  missedTradesResponse,
  playbookBody,
  playbookIdParams,
  playbookReportQuery,
  playbookReportResponse,
  playbookResponse,
  playbooksResponse,
  tradeKeyParams,
  tradePlaybookResponse,
  updateTradePlaybookBody,
} from '@pipsense/contract';
import { plural } from '../../lib/text';
import { userId } from '../../plugins/auth';
import type { PlaybooksService } from './playbooks.service';

/** Playbooks, trade reviews, the playbook report and missed trades (docs/review.md; contract playbook.ts). */
export const playbooksRoutes: FastifyPluginAsyncZod<{ playbooks: PlaybooksService }> = async (app, { playbooks }) => {
  app.addHook('onRequest', app.requireUser);

  app.get('/api/v1/playbook/get_playbooks', { schema: { response: { 200: playbooksResponse } } }, async (request) => {
    const data = await playbooks.playbooks(userId(request));
    return { success: true, message: data.length === 0 ? 'No playbooks yet' : plural(data.length, 'playbook'), data };
  });

  app.post(
    '/api/v1/playbook/create_playbook',
    { schema: { body: playbookBody, response: { 200: playbookResponse } } },
    async (request) => {
      const data = await playbooks.create(userId(request), request.body);
      return { success: true, message: `Playbook "${data.name}" created.`, data };
    },
  );

  app.post(
    '/api/v1/playbook/edit_playbook/:id',
    { schema: { params: playbookIdParams, body: playbookBody, response: { 200: playbookResponse } } },
    async (request) => {
      const data = await playbooks.edit(userId(request), request.params.id, request.body);
      return { success: true, message: `Playbook "${data.name}" saved.`, data };
    },
  );

  app.post(
    '/api/v1/playbook/delete_playbook/:id',
    { schema: { params: playbookIdParams, response: { 200: playbookResponse } } },
    async (request) => {
      const data = await playbooks.remove(userId(request), request.params.id);
      const from = data.counts.trades > 0 ? ` and taken off ${plural(data.counts.trades, 'trade')}` : '';
      return { success: true, message: `Playbook "${data.name}" deleted${from}.`, data };
    },
  );

  app.get(
    '/api/v1/playbook/get_trade_playbook/:accountId/:tradeId',
    { schema: { params: tradeKeyParams, response: { 200: tradePlaybookResponse } } },
    async (request) => {
      const data = await playbooks.tradePlaybook(userId(request), request.params);
      return { success: true, message: data.playbookId === null ? 'No playbook' : 'Trade review', data };
    },
  );

  app.post(
    '/api/v1/playbook/update_trade_playbook/:accountId/:tradeId',
    { schema: { params: tradeKeyParams, body: updateTradePlaybookBody, response: { 200: tradePlaybookResponse } } },
    async (request) => {
      const data = await playbooks.updateTradePlaybook(userId(request), request.params, request.body);
      const message =
        data.playbookId === null
          ? 'Trade taken off its playbook.'
          : data.reviewed
            ? 'Review saved.'
            : 'Playbook saved.';
      return { success: true, message, data };
    },
  );

  app.post(
    '/api/v1/playbook/bulk_assign',
    { schema: { body: bulkAssignBody, response: { 200: bulkAssignResponse } } },
    async (request) => {
      const data = await playbooks.bulkAssign(userId(request), request.body.trades, request.body.playbookId);
      const done = request.body.playbookId === null ? 'taken off their playbook' : 'assigned';
      return { success: true, message: `${plural(data.updated, 'trade')} ${done}.`, data };
    },
  );

  app.get(
    '/api/v1/playbook/get_report/:id',
    {
      schema: { params: playbookIdParams, querystring: playbookReportQuery, response: { 200: playbookReportResponse } },
    },
    async (request) => {
      const data = await playbooks.report(userId(request), request.params.id, request.query);
      return { success: true, message: `Report over ${plural(data.trades, 'trade')}`, data };
    },
  );

  app.get(
    '/api/v1/playbook/get_missed_trades',
    { schema: { querystring: missedTradesQuery, response: { 200: missedTradesResponse } } },
    async (request) => {
      const data = await playbooks.missedTrades(userId(request), request.query);
      return {
        success: true,
        message: data.length === 0 ? 'No missed trades yet' : plural(data.length, 'missed trade'),
        data,
      };
    },
  );

  app.post(
    '/api/v1/playbook/create_missed_trade',
    { schema: { body: missedTradeBody, response: { 200: missedTradeResponse } } },
    async (request) => {
      const data = await playbooks.createMissed(userId(request), request.body);
      return { success: true, message: 'Missed trade logged.', data };
    },
  );

  app.post(
    '/api/v1/playbook/edit_missed_trade/:id',
    { schema: { params: playbookIdParams, body: missedTradeBody, response: { 200: missedTradeResponse } } },
    async (request) => {
      const data = await playbooks.editMissed(userId(request), request.params.id, request.body);
      return { success: true, message: 'Missed trade saved.', data };
    },
  );

  app.post(
    '/api/v1/playbook/delete_missed_trade/:id',
    { schema: { params: playbookIdParams, response: { 200: missedTradeResponse } } },
    async (request) => {
      const data = await playbooks.removeMissed(userId(request), request.params.id);
      return { success: true, message: 'Missed trade deleted.', data };
    },
  );
};
