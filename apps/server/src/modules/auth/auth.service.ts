import { randomUUID } from 'node:crypto';
import type { Profile, RegisterBody } from '@pipsense/contract';
import { AppError, conflict, unauthorized } from '../../lib/errors';
import { type UserRepository, usernameKey } from './user.repository';
import { burnVerify, hashPassword, verifyPassword } from './password';

/** A user whose email address was just set (registration or a new address): it gets a confirmation link. */
export interface EmailSet {
  id: string;
  username: string;
  email: string;
}

export interface AuthServiceDeps {
  users: UserRepository;
  now: () => Date;
  /** Sends the confirmation link (modules/auth/recovery.service.ts); never fails the caller. */
  onEmailSet?: (user: EmailSet) => void;
  /** Every instance forgets what it knew of the user's sessions (modules/auth/session-guard.ts). */
  sessionsChanged?: (userId: string) => Promise<void>;
}

const wrongPassword = (field: string) =>
  new AppError(400, 'WRONG_PASSWORD', `${field} is not correct. Nothing was changed.`);

export function createAuthService({ users, now, onEmailSet, sessionsChanged }: AuthServiceDeps) {
  const gone = () => unauthorized('Your account no longer exists. Please sign in again.');
  const requireUser = async (id: string) => {
    const user = await users.findById(id);
    if (!user) throw gone();
    return user;
  };

  return {
    usernameExists: (username: string) => users.usernameTaken(username),
    emailExists: (email: string) => users.emailTaken(email),

    async register({ username, email, password }: RegisterBody): Promise<EmailSet> {
      if (await users.usernameTaken(username)) throw conflict('Username already exists.', 'USERNAME_TAKEN');
      if (await users.emailTaken(email)) throw conflict('Email already exists.', 'EMAIL_TAKEN');
      const at = now().toISOString();
      const id = randomUUID();
      try {
        await users.insert({
          id,
          username: username.trim(),
          username_key: usernameKey(username),
          email: email.trim().toLowerCase(),
          password_hash: await hashPassword(password),
          created_at: at,
          updated_at: at,
        });
      } catch (error) {
        // Two registrations racing for the same name: the unique index decides.
        if (await users.usernameTaken(username)) throw conflict('Username already exists.', 'USERNAME_TAKEN');
        if (await users.emailTaken(email)) throw conflict('Email already exists.', 'EMAIL_TAKEN');
        throw error;
      }
      const created = { id, username: username.trim(), email: email.trim().toLowerCase() };
      onEmailSet?.(created);
      return created;
    },

    /** Returns the user when the password matches; one message for every failure. */
    async authenticate(username: string, password: string) {
      const user = await users.findByUsername(username);
      if (!user) {
        await burnVerify(password);
        throw new AppError(401, 'INVALID_CREDENTIALS', 'Invalid username or password.');
      }
      if (!(await verifyPassword(user.password_hash, password)))
        throw new AppError(401, 'INVALID_CREDENTIALS', 'Invalid username or password.');
      return user;
    },

    async profile(userId: string): Promise<Profile> {
      const user = await users.profileById(userId);
      if (!user) throw gone();
      return { username: user.username, email: user.email, emailConfirmed: user.email_confirmed_at !== null };
    },

    /**
     * Where the app may mail a user's notices (rule alerts, weekly reviews): their address once confirmed, else null.
     * An address nobody confirmed may be mistyped or someone else's, so only the confirmation link and the password
     * reset go there (docs/coach.md, Weekly review; docs/rules.md, Alerts). Null for a user who no longer exists.
     */
    async noticeAddress(userId: string): Promise<string | null> {
      const user = await users.profileById(userId);
      return user && user.email !== '' && user.email_confirmed_at !== null ? user.email : null;
    },

    async updateProfile(userId: string, username: string, email: string): Promise<Profile> {
      const before = await requireUser(userId);
      if (await users.usernameTaken(username, userId)) throw conflict('Username already exists', 'USERNAME_TAKEN');
      if (await users.emailTaken(email, userId)) throw conflict('Email already exists', 'EMAIL_TAKEN');
      const next = { username: username.trim(), email: email.trim().toLowerCase() };
      // A new address is unconfirmed until its own link is opened.
      const emailChanged = next.email !== before.email;
      await users.update(userId, {
        username: next.username,
        username_key: usernameKey(username),
        email: next.email,
        ...(emailChanged ? { email_confirmed_at: null } : {}),
        updated_at: now().toISOString(),
      });
      if (emailChanged) onEmailSet?.({ id: userId, ...next });
      return { ...next, emailConfirmed: emailChanged ? false : before.email_confirmed_at !== null };
    },

    /**
     * A new password needs the current one: a stolen session alone cannot lock the owner out
     * (docs/decisions/016-password-change-needs-current.md). Moves the session version, so every older token stops
     * working; answers the user as now stored, to sign a fresh token.
     */
    async changePassword(userId: string, currentPassword: string, password: string) {
      const user = await requireUser(userId);
      if (!(await verifyPassword(user.password_hash, currentPassword))) throw wrongPassword('Current Password');
      await users.setPassword(userId, await hashPassword(password), now().toISOString());
      await sessionsChanged?.(userId);
      return requireUser(userId);
    },

    /** Checks the password of a signed-in user before an irreversible step (account deletion). */
    async confirmPassword(userId: string, password: string): Promise<void> {
      const user = await requireUser(userId);
      if (!(await verifyPassword(user.password_hash, password))) throw wrongPassword('The password');
    },

    /** The user as stored (for signing a token); 401 when the account is gone. */
    user: requireUser,
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
