import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleteAccountBody, envelope } from '@pipsense/contract';
import { sessionClaims, userId } from '../../plugins/auth';
import type { AuthService } from './auth.service';
import type { SessionGuard } from './session-guard';

export interface SessionRoutesOptions {
  auth: AuthService;
  sessions: SessionGuard;
  /**
   * Removes every row of the user, in one transaction: each module's deletion hook (db/user-data.ts), wired by app.ts,
   * auth's own last. Auth knows no other module: they are told through this list.
   */
  deleteUserData: (userId: string) => Promise<void>;
}

/**
 * Logout (this token), log out everywhere (every token), and account deletion (SECURITY.md, Stolen or forged session
 * tokens; Data left behind after deletion).
 */
export const sessionRoutes: FastifyPluginAsyncZod<SessionRoutesOptions> = async (
  app,
  { auth, sessions, deleteUserData },
) => {
  app.addHook('onRequest', app.requireUser);

  app.post('/api/v1/auth/logout', { schema: { response: { 200: envelope } } }, async (request) => {
    const { userId: id, tokenId } = sessionClaims(request);
    await sessions.revokeToken(id, tokenId, request.user.exp);
    return { success: true, message: 'You are signed out.' };
  });

  app.post('/api/v1/auth/logout_all', { schema: { response: { 200: envelope } } }, async (request) => {
    await sessions.revokeAll(userId(request));
    return { success: true, message: 'You are signed out everywhere: every session of your account has ended.' };
  });

  app.post(
    '/api/v1/account/delete_account',
    { schema: { body: deleteAccountBody, response: { 200: envelope } }, preHandler: app.credentialLimits },
    async (request) => {
      const id = userId(request);
      await auth.confirmPassword(id, request.body.password);
      await deleteUserData(id);
      await sessions.changed(id);
      return { success: true, message: 'Your account and all of its data have been deleted.' };
    },
  );
};
