import { z } from 'zod';
import { envelope } from './common';

/** Registration rules the spec leaves open; see docs/decisions/002-credential-rules.md. */
const USERNAME_RULE = 'Username must be 3–32 characters: letters, digits, dot, dash or underscore.';
const EMAIL_RULE = 'Enter a valid email address.';
const PASSWORD_RULE = 'Password must be 8–128 characters.';

export const username = z
  .string({ error: 'Username is required.' })
  .trim()
  .regex(/^[A-Za-z0-9._-]{3,32}$/, USERNAME_RULE);
export const email = z
  .string({ error: 'Email is required.' })
  .trim()
  .max(254, EMAIL_RULE)
  .email(EMAIL_RULE)
  .transform((v) => v.toLowerCase());
export const password = z.string({ error: 'Password is required.' }).min(8, PASSWORD_RULE).max(128, PASSWORD_RULE);

export const loginBody = z.object({
  username: z.string({ error: 'Username is required.' }).trim().min(1, 'Username is required.').max(64),
  password: z.string({ error: 'Password is required.' }).min(1, 'Password is required.').max(128),
});
export type LoginBody = z.infer<typeof loginBody>;
export const loginResponse = envelope.extend({ token: z.string() });
export type LoginResponse = z.infer<typeof loginResponse>;

export const registerBody = z.object({ username, email, password });
export type RegisterBody = z.input<typeof registerBody>;

export const checkUsernameBody = z.object({ username: z.string().trim().min(1, 'Username is required.').max(64) });
export const checkEmailBody = z.object({ email: z.string().trim().min(1, 'Email is required.').max(254) });
export const existsResponse = envelope.extend({ exists: z.boolean() });
export type ExistsResponse = z.infer<typeof existsResponse>;

/** `emailConfirmed`: whether the emailed confirmation link was opened; the server always sends it. */
const profile = z.object({ username: z.string(), email: z.string(), emailConfirmed: z.boolean().optional() });
export type Profile = z.infer<typeof profile>;
export const meResponse = envelope.extend({ data: profile });
export type MeResponse = z.infer<typeof meResponse>;

/** The token of an emailed link (confirmation or password reset), as the link carries it. */
const LINK_RULE = 'The link token is incomplete: open the whole link from the email.';
const emailLinkToken = z
  .string({ error: LINK_RULE })
  .trim()
  .min(20, LINK_RULE)
  .max(200, LINK_RULE)
  .regex(/^[A-Za-z0-9_-]+$/, LINK_RULE);

export const confirmEmailBody = z.object({ token: emailLinkToken });
export const requestPasswordResetBody = z.object({ email });
export const resetPasswordBody = z.object({ token: emailLinkToken, password });
/** The answer to a reset request: the same for any address, so it tells no one whether an account uses it. */
export const PASSWORD_RESET_REQUESTED =
  'If an account uses this email address, a link to reset its password is on its way. It is valid for 1 hour.';
