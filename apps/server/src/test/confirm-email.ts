import type { TestApp } from './harness';
import type { TestSmtp } from './smtp';

/**
 * Opens the confirmation link mailed at registration, as the trader would (the loopback SMTP server's copy): from
 * then on the address receives the app's notices, which never go to an unconfirmed one (auth's `noticeAddress`).
 */
export async function confirmEmail(t: TestApp, smtp: TestSmtp, email: string): Promise<void> {
  const mail = await smtp.waitFor(email);
  const res = await t.call(undefined, {
    method: 'POST',
    url: '/api/v1/auth/confirm_email',
    payload: { token: mail.token },
  });
  if (res.statusCode !== 200) throw new Error(`The confirmation of ${email} failed: ${res.body}`);
}
