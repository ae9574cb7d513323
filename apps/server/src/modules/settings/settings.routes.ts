import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  getInfoResponse,
  homeCurrencyResponse,
  infoRecord,
  meResponse,
  timeZoneResponse,
  updateHomeCurrencyBody,
  updatePasswordBody,
  updatePasswordResponse,
  updateTimeZoneBody,
  updateUsernameEmailBody,
} from '@pipsense/contract';
import type { Env } from '../../config/env';
import { signSession, userId } from '../../plugins/auth';
import type { AuthService } from '../auth';
import { type SettingsService, providersStatus } from './settings.service';

export const settingsRoutes: FastifyPluginAsyncZod<{ settings: SettingsService; auth: AuthService; env: Env }> = async (
  app,
  { settings, auth, env },
) => {
  app.addHook('onRequest', app.requireUser);

  app.get('/api/v1/account/get_info', { schema: { response: { 200: getInfoResponse } } }, async (request) => ({
    success: true,
    message: 'Settings loaded.',
    ...(await settings.view(userId(request))),
    providers: providersStatus(env),
  }));

  app.post(
    '/api/v1/account/update_info',
    { schema: { body: infoRecord, response: { 200: getInfoResponse } } },
    async (request) => {
      await settings.update(userId(request), request.body);
      return {
        success: true,
        message: 'Configuration updated successfully',
        ...(await settings.view(userId(request))),
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
    // Per IP like sign-in: a stolen session must not be able to guess the current password at leisure.
    {
      schema: { body: updatePasswordBody, response: { 200: updatePasswordResponse } },
      preHandler: app.credentialLimits,
    },
    async (request) => {
      const { current_password, new_password } = request.body;
      const user = await auth.changePassword(userId(request), current_password, new_password);
      // Every older token stopped working, this one too: the caller carries on with a fresh one.
      return { success: true, message: 'Password changed successfully', token: signSession(app, user) };
    },
  );

  // The trader's time zone (Profile), in which the Overview is computed and stored
  // (docs/decisions/013-overview-snapshot.md).
  app.get('/api/v1/account/get_time_zone', { schema: { response: { 200: timeZoneResponse } } }, async (request) => ({
    success: true,
    message: 'Time zone loaded.',
    data: { timeZone: await settings.timeZone(userId(request)) },
  }));

  app.post(
    '/api/v1/account/update_time_zone',
    { schema: { body: updateTimeZoneBody, response: { 200: timeZoneResponse } } },
    async (request) => {
      const zone = await settings.updateTimeZone(userId(request), request.body.timeZone);
      return { success: true, message: `Time zone set to ${zone}.`, data: { timeZone: zone } };
    },
  );

  // The home currency (Profile): money of several currencies is converted into it or listed per currency
  // (docs/decisions/024-currencies-never-mixed.md).
  app.get(
    '/api/v1/account/get_home_currency',
    { schema: { response: { 200: homeCurrencyResponse } } },
    async (request) => {
      const data = await settings.homeCurrency(userId(request));
      return {
        success: true,
        message: data.isDefault
          ? `Home currency: ${data.currency} (the currency of most of your trades until you choose one).`
          : `Home currency: ${data.currency}.`,
        data,
      };
    },
  );

  app.post(
    '/api/v1/account/update_home_currency',
    { schema: { body: updateHomeCurrencyBody, response: { 200: homeCurrencyResponse } } },
    async (request) => {
      const currency = await settings.updateHomeCurrency(userId(request), request.body.currency);
      return { success: true, message: `Home currency set to ${currency}.`, data: { currency, isDefault: false } };
    },
  );
};
