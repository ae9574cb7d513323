import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createRuleSetBody,
  readAlertsBody,
  readAlertsResponse,
  ruleAlertsQuery,
  ruleAlertsResponse,
  editRuleSetBody,
  ruleBreaksQuery,
  ruleBreaksResponse,
  ruleDaysQuery,
  ruleDaysResponse,
  rulePresetsResponse,
  ruleSetDeletedResponse,
  ruleSetIdParams,
  ruleSetResponse,
  ruleSetsResponse,
  ruleStatusQuery,
  ruleStatusResponse,
} from '@pipsense/contract';
import { plural } from '../../lib/text';
import { userId } from '../../plugins/auth';
import type { RulesService } from './rules.service';

/** Rule sets of the user's accounts and what the rule engine answers for them (docs/rules.md, API). */
export const rulesRoutes: FastifyPluginAsyncZod<{ rules: RulesService }> = async (app, { rules }) => {
  app.addHook('onRequest', app.requireUser);

  app.get('/api/v1/rules/get_presets', { schema: { response: { 200: rulePresetsResponse } } }, () => {
    const data = rules.presets();
    return { success: true, message: plural(data.length, 'preset'), data };
  });

  app.get('/api/v1/rules/get_rule_sets', { schema: { response: { 200: ruleSetsResponse } } }, async (request) => {
    const data = await rules.list(userId(request));
    return { success: true, message: plural(data.length, 'rule set'), data };
  });

  app.post(
    '/api/v1/rules/create_rule_set',
    { schema: { body: createRuleSetBody, response: { 200: ruleSetResponse } } },
    async (request) => {
      const data = await rules.create(userId(request), request.body);
      return { success: true, message: 'Rule set created', data };
    },
  );

  app.post(
    '/api/v1/rules/edit_rule_set/:id',
    { schema: { params: ruleSetIdParams, body: editRuleSetBody, response: { 200: ruleSetResponse } } },
    async (request) => {
      const data = await rules.edit(userId(request), request.params.id, request.body);
      return { success: true, message: 'Rule set saved', data };
    },
  );

  app.post(
    '/api/v1/rules/delete_rule_set/:id',
    { schema: { params: ruleSetIdParams, response: { 200: ruleSetDeletedResponse } } },
    async (request) => {
      await rules.remove(userId(request), request.params.id);
      return { success: true, message: 'Rule set deleted', data: { id: request.params.id } };
    },
  );

  app.get(
    '/api/v1/rules/get_status/:id',
    { schema: { params: ruleSetIdParams, querystring: ruleStatusQuery, response: { 200: ruleStatusResponse } } },
    async (request) => {
      const data = await rules.status(userId(request), request.params.id, request.query.at);
      return { success: true, message: `State: ${data.state}`, data };
    },
  );

  app.get(
    '/api/v1/rules/get_days/:id',
    { schema: { params: ruleSetIdParams, querystring: ruleDaysQuery, response: { 200: ruleDaysResponse } } },
    async (request) => {
      const data = await rules.days(userId(request), request.params.id, request.query);
      return { success: true, message: plural(data.length, 'day'), data };
    },
  );

  app.get(
    '/api/v1/rules/get_breaks',
    { schema: { querystring: ruleBreaksQuery, response: { 200: ruleBreaksResponse } } },
    async (request) => {
      const data = await rules.breaks(userId(request), request.query);
      return { success: true, message: plural(data.length, 'break'), data };
    },
  );
  app.get(
    '/api/v1/rules/get_alerts',
    { schema: { querystring: ruleAlertsQuery, response: { 200: ruleAlertsResponse } } },
    async (request) => {
      const data = await rules.alerts(userId(request), request.query.unread === true);
      return { success: true, message: plural(data.unread, 'unread alert'), data };
    },
  );

  app.post(
    '/api/v1/rules/read_alerts',
    // A POST without a body reads every unread alert, as `{}` does.
    { schema: { body: readAlertsBody.nullish(), response: { 200: readAlertsResponse } } },
    async (request) => {
      const read = await rules.readAlerts(userId(request), request.body?.ids);
      return { success: true, message: `${plural(read, 'alert')} marked read`, data: { read } };
    },
  );
};
