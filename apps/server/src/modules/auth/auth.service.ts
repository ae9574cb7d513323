import { randomUUID } from 'node:crypto';
import type { Profile, RegisterBody } from '@pipsense/contract';
import { AppError, conflict, unauthorized } from '../../lib/errors';
import { type UserRepository, usernameKey } from './user.repository';
import { burnVerify, hashPassword, verifyPassword } from './password';

export interface AuthServiceDeps {
  users: UserRepository;
  now: () => Date;
}

export function createAuthService({ users, now }: AuthServiceDeps) {
  const requireUser = async (id: string) => {
    const user = await users.findById(id);
    if (!user) throw unauthorized('Your account no longer exists. Please sign in again.');
    return user;
  };

  return {
    usernameExists: (username: string) => users.usernameTaken(username),
    emailExists: (email: string) => users.emailTaken(email),

    async register({ username, email, password }: RegisterBody): Promise<void> {
      if (await users.usernameTaken(username)) throw conflict('Username already exists.', 'USERNAME_TAKEN');
      if (await users.emailTaken(email)) throw conflict('Email already exists.', 'EMAIL_TAKEN');
      const at = now().toISOString();
      try {
        await users.insert({
          id: randomUUID(),
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
      const user = await requireUser(userId);
      return { username: user.username, email: user.email };
    },

    async updateProfile(userId: string, username: string, email: string): Promise<Profile> {
      await requireUser(userId);
      if (await users.usernameTaken(username, userId)) throw conflict('Username already exists', 'USERNAME_TAKEN');
      if (await users.emailTaken(email, userId)) throw conflict('Email already exists', 'EMAIL_TAKEN');
      await users.update(userId, {
        username: username.trim(),
        username_key: usernameKey(username),
        email: email.trim().toLowerCase(),
        updated_at: now().toISOString(),
      });
      return { username: username.trim(), email: email.trim().toLowerCase() };
    },

    async changePassword(userId: string, password: string): Promise<void> {
      await requireUser(userId);
      await users.update(userId, { password_hash: await hashPassword(password), updated_at: now().toISOString() });
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
