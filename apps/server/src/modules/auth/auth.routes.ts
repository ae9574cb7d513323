import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  checkEmailBody,
  checkUsernameBody,
  envelope,
  existsResponse,
  loginBody,
  loginResponse,
  meResponse,
  registerBody,
} from '@pipsense/contract';
import { AppError } from '../../lib/errors';
import { signSession, userId } from '../../plugins/auth';
import type { AuthService } from './auth.service';

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    '/api/v1/auth/login',
    { schema: { body: loginBody, response: { 200: loginResponse } }, preHandler: app.credentialLimits },
    async (request) => {
      const user = await auth.authenticate(request.body.username, request.body.password).catch(async (error) => {
        // Only a wrong password (or an unknown name) counts against the username, never a refused attempt.
        if (error instanceof AppError && error.code === 'INVALID_CREDENTIALS') await app.recordPasswordFailure(request);
        throw error;
      });
      const token = signSession(app, user);
      return { success: true, message: 'Login successful!', token };
    },
  );

  app.post(
    '/api/v1/auth/register',
    { schema: { body: registerBody, response: { 200: envelope } }, preHandler: app.credentialLimits },
    async (request) => {
      await auth.register(request.body);
      return { success: true, message: 'Registration successful! You can now log in.' };
    },
  );

  app.post(
    '/api/v1/auth/check_username_exist',
    { schema: { body: checkUsernameBody, response: { 200: existsResponse } }, preHandler: app.checkLimits },
    async (request) => {
      const exists = await auth.usernameExists(request.body.username);
      return { success: true, message: exists ? 'Username already exists.' : 'Username is available.', exists };
    },
  );

  app.post(
    '/api/v1/auth/check_email_exist',
    { schema: { body: checkEmailBody, response: { 200: existsResponse } }, preHandler: app.checkLimits },
    async (request) => {
      const exists = await auth.emailExists(request.body.email);
      return { success: true, message: exists ? 'Email already exists.' : 'Email is available.', exists };
    },
  );

  app.get(
    '/api/v1/auth/me',
    { schema: { response: { 200: meResponse } }, onRequest: app.requireUser },
    async (request) => ({ success: true, message: 'Profile loaded.', data: await auth.profile(userId(request)) }),
  );
};
