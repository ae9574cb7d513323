import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  dashboardMetricsQuery,
  dashboardMetricsResponse,
  type DashboardMetrics,
  type PlatformQuery,
} from '@pipsense/contract';
import { userId } from '../../plugins/auth';
import { plural } from '../../lib/text';
import { isSliced, type AnalyticsService } from './analytics.service';

function metricsMessage(
  data: Pick<DashboardMetrics, 'tradeCount' | 'accountCount'>,
  filtered = false,
  platform: PlatformQuery = 'oanda',
): string {
  if (data.tradeCount === 0 && filtered)
    return 'No trades match these filters. Widen the date range or clear the account, instrument, tag, rule-break or playbook filter.';
  if (data.tradeCount === 0 && platform === 'metatrader')
    return 'No MetaTrader trades imported yet. Import a MetaTrader 4/5 report or a CSV file on the Trades page.';
  if (data.tradeCount === 0)
    return 'No trades synced yet. Connect OANDA in Settings → Trading Platforms, then press Sync on the Trades or Accounts page.';
  return `Metrics for ${plural(data.tradeCount, 'trade')} on ${plural(data.accountCount, 'account')}`;
}

/**
 * The Overview analytics (docs/PRODUCT.md, HTTP calls), from the OANDA service. The journal's filters slice it
 * (contract dashboardMetricsQuery): an inverted range or a malformed time is a 400 from the contract; a tag id not
 * among the caller's tags is a 400 too (analytics.service.ts), never an empty overview that looks like "no trades".
 */
export const analyticsRoutes: FastifyPluginAsyncZod<{ analytics: AnalyticsService }> = async (app, { analytics }) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/api/v1/dashboard/metrics',
    { schema: { querystring: dashboardMetricsQuery, response: { 200: dashboardMetricsResponse } } },
    async (request, reply) => {
      const { platform } = request.query;
      if (isSliced(request.query)) {
        const data = await analytics.overview(userId(request), request.query);
        return { success: true, message: metricsMessage(data, true, platform), data };
      }
      // The whole overview is its snapshot's stored JSON text, sent as it is (no parse, no serializer).
      const view = await analytics.view(userId(request), request.query);
      const message = JSON.stringify(metricsMessage(view, false, platform));
      const text = `{"success":true,"message":${message},"data":${view.json}}`;
      // A string with a JSON content type goes out as it is; the route's types only know the object form.
      return reply.type('application/json; charset=utf-8').send(text as never);
    },
  );
};
