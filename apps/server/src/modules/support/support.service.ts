import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { AppError } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import type { AuthService } from '../auth';
import type { SupportTables } from './tables';

/** Feedback messages one user may send per hour. */
const FEEDBACK_PER_HOUR = 10;

export interface SupportServiceDeps {
  db: Kysely<SupportTables>;
  auth: Pick<AuthService, 'profile'>;
  mailer: Mailer;
  /** SUPPORT_EMAIL: where feedback is mailed; unset, it is only stored. */
  supportEmail?: string | undefined;
  now: () => Date;
  log: { warn(details: object, message: string): void };
}

/**
 * The in-app feedback button (SECURITY.md, Feedback). Every message is stored; mailed to SUPPORT_EMAIL (after the
 * answer).
 */
export function createSupportService({ db, auth, mailer, supportEmail, now, log }: SupportServiceDeps) {
  const pending = new Set<Promise<void>>();

  async function mail(id: string, from: { username: string; email: string }, message: string, at: string) {
    if (!supportEmail) return;
    await mailer.send({
      to: supportEmail,
      replyTo: from.email,
      subject: `PipSense feedback from ${from.username}`,
      text: `From: ${from.username} <${from.email}>\nSent: ${at}\n\n${message}`,
    });
    await db.updateTable('feedback').set({ mailed_at: now().toISOString() }).where('id', '=', id).execute();
  }

  return {
    /** Stores the message; answers whether it is on its way to a support address too. */
    async send(userId: string, message: string): Promise<{ mailed: boolean }> {
      const from = await auth.profile(userId);
      const at = now();
      const hourAgo = new Date(at.getTime() - 3600_000).toISOString();
      const recent = await db
        .selectFrom('feedback')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .where('created_at', '>', hourAgo)
        .executeTakeFirstOrThrow();
      if (Number(recent.n) >= FEEDBACK_PER_HOUR)
        throw new AppError(
          429,
          'RATE_LIMITED',
          `You have sent ${FEEDBACK_PER_HOUR} messages this hour. Thank you! Please wait a while before sending more.`,
          { 'retry-after': '3600' },
        );
      const id = randomUUID();
      await db.insertInto('feedback').values({ id, user_id: userId, message, created_at: at.toISOString() }).execute();
      const run = mail(id, from, message, at.toISOString()).catch((error: unknown) =>
        log.warn({ err: error, feedbackId: id }, 'feedback email failed (the message is stored)'),
      );
      pending.add(run);
      void run.finally(() => pending.delete(run));
      return { mailed: Boolean(supportEmail) };
    },

    /** Waits for the mail still being sent (the app's close, tests). */
    async settle(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
export type SupportService = ReturnType<typeof createSupportService>;
