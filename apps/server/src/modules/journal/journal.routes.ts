import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bulkTagBody,
  bulkTagResponse,
  createTagBody,
  editTagBody,
  tagIdParams,
  tagResponse,
  tagsResponse,
  tradeKeyParams,
  tradeNoteResponse,
  updateTradeNoteBody,
} from '@pipsense/contract';
import { plural } from '../../lib/text';
import { userId } from '../../plugins/auth';
import type { JournalService } from './journal.service';

/** Journal calls (docs/decisions/011-journal-columns.md): tags, a trade's note/rating/tags, bulk tagging. */
export const journalRoutes: FastifyPluginAsyncZod<{ journal: JournalService }> = async (app, { journal }) => {
  app.addHook('onRequest', app.requireUser);

  app.get('/api/v1/journal/get_tags', { schema: { response: { 200: tagsResponse } } }, async (request) => {
    const data = await journal.tags(userId(request));
    return { success: true, message: data.length === 0 ? 'No tags yet' : plural(data.length, 'tag'), data };
  });

  app.post(
    '/api/v1/journal/create_tag',
    { schema: { body: createTagBody, response: { 200: tagResponse } } },
    async (request) => {
      const data = await journal.createTag(userId(request), request.body.name, request.body.kind);
      return { success: true, message: `Tag "${data.name}" created.`, data };
    },
  );

  app.post(
    '/api/v1/journal/edit_tag/:tagId',
    { schema: { params: tagIdParams, body: editTagBody, response: { 200: tagResponse } } },
    async (request) => {
      const data = await journal.renameTag(userId(request), request.params.tagId, request.body.name);
      return { success: true, message: `Tag renamed to "${data.name}".`, data };
    },
  );

  app.post(
    '/api/v1/journal/delete_tag/:tagId',
    { schema: { params: tagIdParams, response: { 200: tagResponse } } },
    async (request) => {
      const data = await journal.deleteTag(userId(request), request.params.tagId);
      const from = data.trades > 0 ? ` and removed from ${plural(data.trades, 'trade')}` : '';
      return { success: true, message: `Tag "${data.name}" deleted${from}.`, data };
    },
  );

  app.get(
    '/api/v1/journal/get_trade_note/:accountId/:tradeId',
    { schema: { params: tradeKeyParams, response: { 200: tradeNoteResponse } } },
    async (request) => ({
      success: true,
      message: 'Trade note loaded.',
      data: await journal.tradeNote(userId(request), request.params),
    }),
  );

  app.post(
    '/api/v1/journal/update_trade_note/:accountId/:tradeId',
    { schema: { params: tradeKeyParams, body: updateTradeNoteBody, response: { 200: tradeNoteResponse } } },
    async (request) => ({
      success: true,
      message: 'Trade note saved.',
      data: await journal.updateTradeNote(userId(request), request.params, request.body),
    }),
  );

  app.post(
    '/api/v1/journal/bulk_tag',
    { schema: { body: bulkTagBody, response: { 200: bulkTagResponse } } },
    async (request) => {
      const data = await journal.bulkTag(userId(request), request.body.trades, request.body.tagIds);
      return {
        success: true,
        message: `Tagged ${plural(data.trades, 'trade')}: ${plural(data.added, 'tag')} added.`,
        data,
      };
    },
  );
};
