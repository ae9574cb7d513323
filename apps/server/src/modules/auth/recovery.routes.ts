import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PASSWORD_RESET_REQUESTED,
  confirmEmailBody,
  envelope,
  requestPasswordResetBody,
  resetPasswordBody,
} from '@pipsense/contract';
import { userId } from '../../plugins/auth';
import type { RecoveryService } from './recovery.service';

/** Email confirmation and password reset by emailed link (SECURITY.md, Takeover through recovery links). */
export const recoveryRoutes: FastifyPluginAsyncZod<{ recovery: RecoveryService }> = async (app, { recovery }) => {
  app.post(
    '/api/v1/auth/confirm_email',
    { schema: { body: confirmEmailBody, response: { 200: envelope } }, preHandler: app.credentialLimits },
    async (request) => {
      await recovery.confirmEmail(request.body.token);
      return { success: true, message: 'Your email address is confirmed. Thank you!' };
    },
  );

  app.post(
    '/api/v1/auth/resend_confirmation',
    { schema: { response: { 200: envelope } }, onRequest: app.requireUser },
    async (request) => {
      const email = await recovery.resendConfirmation(userId(request));
      return { success: true, message: `A new confirmation link is on its way to ${email}.` };
    },
  );

  app.post(
    '/api/v1/auth/request_password_reset',
    { schema: { body: requestPasswordResetBody, response: { 200: envelope } }, preHandler: app.credentialLimits },
    (request) => {
      recovery.requestPasswordReset(request.body.email);
      return Promise.resolve({ success: true, message: PASSWORD_RESET_REQUESTED });
    },
  );

  app.post(
    '/api/v1/auth/reset_password',
    { schema: { body: resetPasswordBody, response: { 200: envelope } }, preHandler: app.credentialLimits },
    async (request) => {
      await recovery.resetPassword(request.body.token, request.body.password);
      return { success: true, message: 'Your password has been reset. Sign in with the new password.' };
    },
  );
};
