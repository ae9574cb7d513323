import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  calendarQuery,
  calendarResponse,
  dayParams,
  dayQuery,
  dayResponse,
  updateDayBody,
  updateDayResponse,
} from '@pipsense/contract';
import { plural } from '../../lib/text';
import { userId } from '../../plugins/auth';
import type { CalendarService } from './calendar.service';

/** The P/L calendar and the daily journal, scoped to the signed-in user. */
export const calendarRoutes: FastifyPluginAsyncZod<{ calendar: CalendarService }> = async (app, { calendar }) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/api/v1/journal/get_calendar',
    { schema: { querystring: calendarQuery, response: { 200: calendarResponse } } },
    async (request) => {
      const { month, timeZone } = request.query;
      const { days, currency } = await calendar.month(userId(request), month, timeZone);
      const trades = days.reduce((n, d) => n + d.trades, 0);
      return {
        success: true,
        message: `${plural(trades, 'closed trade')} on ${plural(days.length, 'day')} of ${month}`,
        data: { month, timeZone, currency, days },
      };
    },
  );

  app.get(
    '/api/v1/journal/get_day/:date',
    { schema: { params: dayParams, querystring: dayQuery, response: { 200: dayResponse } } },
    async (request) => {
      const data = await calendar.day(userId(request), request.params.date, request.query.timeZone);
      return {
        success: true,
        message: `${plural(data.trades.length, 'trade')} closed on ${data.date}`,
        data,
      };
    },
  );

  app.post(
    '/api/v1/journal/update_day/:date',
    { schema: { params: dayParams, body: updateDayBody, response: { 200: updateDayResponse } } },
    async (request) => {
      const data = await calendar.updateDay(userId(request), request.params.date, request.body);
      return { success: true, message: `Journal entry for ${data.date} saved`, data };
    },
  );
};
