import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  envelope,
  getInfoResponse,
  infoRecord,
  meResponse,
  timeZoneResponse,
  updatePasswordBody,
  updateTimeZoneBody,
  updateUsernameEmailBody,
} from '@pipsense/contract';
import type { Env } from '../../config/env';
import { userId } from '../../plugins/auth';
import type { AuthService } from '../auth/auth.service';
import { type SettingsService, providersStatus } from './settings.service';

export const settingsRoutes: FastifyPluginAsyncZod<{ info: SettingsService; auth: AuthService; env: Env }> = async (
  app,
  { info, auth, env },
) => {
  app.addHook('onRequest', app.requireUser);

  app.get('/api/v1/account/get_info', { schema: { response: { 200: getInfoResponse } } }, async (request) => ({
    success: true,
    message: 'Settings loaded.',
    ...(await info.view(userId(request))),
    providers: providersStatus(env),
  }));

  app.post(
    '/api/v1/account/update_info',
    { schema: { body: infoRecord, response: { 200: getInfoResponse } } },
    async (request) => {
      await info.update(userId(request), request.body);
      return {
        success: true,
        message: 'Configuration updated successfully',
        ...(await info.view(userId(request))),
        providers: providersStatus(env),
      };
    },
  );

  app.post(
    '/api/v1/account/update_username_email',
    { schema: { body: updateUsernameEmailBody, response: { 200: meResponse } } },
    async (request) => ({
      success: true,
      message: 'Profile updated successfully',
      data: await auth.updateProfile(userId(request), request.body.new_username, request.body.new_email),
    }),
  );

  app.post(
    '/api/v1/account/update_password',
    { schema: { body: updatePasswordBody, response: { 200: envelope } } },
    async (request) => {
      await auth.changePassword(userId(request), request.body.new_password);
      return { success: true, message: 'Password changed successfully' };
    },
  );

  // Issue 11: the trader's time zone (Profile), in which the Overview is computed and stored.
  app.get('/api/v1/account/get_time_zone', { schema: { response: { 200: timeZoneResponse } } }, async (request) => ({
    success: true,
    message: 'Time zone loaded.',
    data: { timeZone: await info.timeZone(userId(request)) },
  }));

  app.post(
    '/api/v1/account/update_time_zone',
    { schema: { body: updateTimeZoneBody, response: { 200: timeZoneResponse } } },
    async (request) => {
      const zone = await info.updateTimeZone(userId(request), request.body.timeZone);
      return { success: true, message: `Time zone set to ${zone}.`, data: { timeZone: zone } };
    },
  );
};
