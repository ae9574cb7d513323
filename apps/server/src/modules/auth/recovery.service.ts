import { createHash, randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { AppError, badRequest } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import type { EmailSet } from './auth.service';
import { hashPassword } from './password';
import type { SessionGuard } from './session-guard';
import type { AuthTables } from './tables';

/** A confirmation link is valid 7 days; a password reset link 1 hour. */
const CONFIRM_TTL_MS = 7 * 24 * 3600_000;
const RESET_TTL_MS = 3600_000;
/** At most one confirmation or reset mail per user per minute. */
const RESEND_AFTER_MS = 60_000;

type Purpose = 'confirm' | 'reset';

/** The token of an emailed link is 32 random bytes; only its SHA-256 is stored. */
export const hashLinkToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface RecoveryServiceDeps {
  db: Kysely<AuthTables>;
  mailer: Mailer;
  sessions: SessionGuard;
  /** The web app's address, for the links (PUBLIC_URL). */
  publicUrl: string;
  now: () => Date;
  log: { warn(details: object, message: string): void };
}

/**
 * Email confirmation and password reset by emailed link (SECURITY.md, Takeover through recovery links). Links are
 * single use, hashed at rest, and valid 7 days (confirmation) or 1 hour (reset). Mail goes out after the answer (a
 * reset request answers the same whether or not the address has an account, in the same time); `settle` waits for
 * what is still being sent.
 */
export function createRecoveryService({ db, mailer, sessions, publicUrl, now, log }: RecoveryServiceDeps) {
  const pending = new Set<Promise<void>>();
  const later = (what: string, work: () => Promise<void>) => {
    const run = work().catch((error: unknown) => log.warn({ err: error }, `${what} failed`));
    pending.add(run);
    void run.finally(() => pending.delete(run));
  };
  const link = (path: string, token: string) => new URL(`${path}?token=${token}`, publicUrl).toString();

  async function recentlySent(userId: string, purpose: Purpose): Promise<boolean> {
    const since = new Date(now().getTime() - RESEND_AFTER_MS).toISOString();
    const row = await db
      .selectFrom('email_tokens')
      .select('token_hash')
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('created_at', '>', since)
      .executeTakeFirst();
    return row !== undefined;
  }

  async function issue(userId: string, email: string, purpose: Purpose): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const at = now();
    const ttl = purpose === 'confirm' ? CONFIRM_TTL_MS : RESET_TTL_MS;
    // Spent and expired links of this user are of no use any more.
    await db
      .deleteFrom('email_tokens')
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', at.toISOString())]))
      .execute();
    await db
      .insertInto('email_tokens')
      .values({
        token_hash: hashLinkToken(token),
        user_id: userId,
        purpose,
        email,
        created_at: at.toISOString(),
        expires_at: new Date(at.getTime() + ttl).toISOString(),
      })
      .execute();
    return token;
  }

  async function sendConfirmation(user: EmailSet): Promise<void> {
    const url = link('/confirm_email', await issue(user.id, user.email, 'confirm'));
    await mailer.send({
      to: user.email,
      subject: 'Confirm your email address for PipSense',
      link: url,
      text: [
        `Hello ${user.username},`,
        '',
        'Please confirm that this is your email address by opening this link (valid for 7 days):',
        url,
        '',
        'Your account works already; confirming lets you reset your password by email if you forget it.',
        'If you did not create a PipSense account, ignore this email.',
      ].join('\n'),
    });
  }

  /** Marks the link used, atomically: of two requests with one token, one wins. */
  async function claim(token: string, purpose: Purpose) {
    const hash = hashLinkToken(token);
    const at = now().toISOString();
    const row = await db
      .selectFrom('email_tokens')
      .selectAll()
      .where('token_hash', '=', hash)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    if (!row || row.used_at !== null || row.expires_at <= at) return { row, claimed: false };
    const result = await db
      .updateTable('email_tokens')
      .set({ used_at: at })
      .where('token_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return { row, claimed: Number(result.numUpdatedRows) === 1 };
  }

  return {
    /** After registration or an email change: the confirmation link, mailed after the answer. */
    emailSet(user: EmailSet): void {
      later('confirmation email', () => sendConfirmation(user));
    },

    async confirmEmail(token: string): Promise<void> {
      const invalid = badRequest(
        'This confirmation link is invalid or has expired. Sign in and ask for a new one from the banner.',
        'INVALID_LINK',
      );
      const { row, claimed } = await claim(token, 'confirm');
      if (!row) throw invalid;
      const user = await db
        .selectFrom('users')
        .select(['email', 'email_confirmed_at'])
        .where('id', '=', row.user_id)
        .executeTakeFirst();
      if (!user) throw invalid;
      if (user.email !== row.email)
        throw badRequest(
          'This link was sent to an address your account no longer uses. Confirm the new address from its own email.',
          'INVALID_LINK',
        );
      // Opening the link twice (a second tab, a mail scanner first) is not an error once the address is confirmed.
      if (!claimed) {
        if (row.used_at !== null && user.email_confirmed_at !== null) return;
        throw invalid;
      }
      await db
        .updateTable('users')
        .set({ email_confirmed_at: now().toISOString() })
        .where('id', '=', row.user_id)
        .execute();
    },

    async resendConfirmation(userId: string): Promise<string> {
      const user = await db
        .selectFrom('users')
        .select(['id', 'username', 'email', 'email_confirmed_at'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!user) throw new AppError(401, 'UNAUTHORIZED', 'Your account no longer exists. Please sign in again.');
      if (user.email_confirmed_at !== null)
        throw badRequest('Your email address is confirmed already.', 'ALREADY_CONFIRMED');
      if (await recentlySent(userId, 'confirm'))
        throw new AppError(
          429,
          'RATE_LIMITED',
          'A confirmation email was sent less than a minute ago. Check your inbox (and spam folder), or try again in a minute.',
          { 'retry-after': '60' },
        );
      await sendConfirmation(user);
      return user.email;
    },

    /** Answers at once, the same for every address; the link is mailed after the answer when an account uses it. */
    requestPasswordReset(email: string): void {
      later('password reset email', async () => {
        const user = await db
          .selectFrom('users')
          .select(['id', 'username', 'email'])
          .where('email', '=', email.trim().toLowerCase())
          .executeTakeFirst();
        if (!user || (await recentlySent(user.id, 'reset'))) return;
        const url = link('/reset_password', await issue(user.id, user.email, 'reset'));
        await mailer.send({
          to: user.email,
          subject: 'Reset your PipSense password',
          link: url,
          text: [
            `Hello ${user.username},`,
            '',
            'Someone (we hope you) asked to reset the password of your PipSense account. Open this link to choose a',
            'new one; it works once, for 1 hour:',
            url,
            '',
            'Setting a new password signs out every session of your account.',
            'If you did not ask for this, ignore this email: your password stays as it is.',
          ].join('\n'),
        });
      });
    },

    /** Sets the new password with a reset link (single use); every older session of the user ends. */
    async resetPassword(token: string, password: string): Promise<void> {
      const passwordHash = await hashPassword(password);
      const { row, claimed } = await claim(token, 'reset');
      if (!row || !claimed)
        throw badRequest(
          'This password reset link is invalid, used or expired. Ask for a new one from the sign-in page.',
          'INVALID_LINK',
        );
      const at = now().toISOString();
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ password_hash: passwordHash, session_version: sql<number>`session_version + 1`, updated_at: at })
          .where('id', '=', row.user_id)
          .execute();
        // Receiving the link at the account's address proves it, as the confirmation link would.
        await trx
          .updateTable('users')
          .set({ email_confirmed_at: at })
          .where('id', '=', row.user_id)
          .where('email', '=', row.email)
          .where('email_confirmed_at', 'is', null)
          .execute();
        // Every other reset link of the user is spent with this one.
        await trx
          .updateTable('email_tokens')
          .set({ used_at: at })
          .where('user_id', '=', row.user_id)
          .where('purpose', '=', 'reset')
          .where('used_at', 'is', null)
          .execute();
      });
      await sessions.changed(row.user_id);
    },

    /** Waits for the mail still being sent (the app's close, tests). */
    async settle(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
export type RecoveryService = ReturnType<typeof createRecoveryService>;
