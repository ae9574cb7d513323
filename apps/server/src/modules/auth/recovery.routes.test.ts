import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_RESET_REQUESTED } from '@pipsense/contract';
import { createTestApp, type TestApp } from '../../test/harness';
import { startSmtp, type TestSmtp } from '../../test/smtp';

/** The app on a controlled clock, mailing through a real SMTP server on loopback. */
let t: TestApp;
let smtp: TestSmtp;
let clock = Date.now();
const advance = (ms: number) => (clock += ms);
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp(
    {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'PipSense <no-reply@pipsense.test>',
      PUBLIC_URL: 'https://pipsense.example.com',
      SUPPORT_EMAIL: 'support@pipsense.test',
    },
    { now: () => new Date(clock) },
  );
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const post = (token: string | undefined, url: string, payload: object = {}) =>
  t.call(token, { method: 'POST', url, payload });
const profile = async (token: string) =>
  (await t.call(token, { method: 'GET', url: '/api/v1/auth/me' })).json<{ data: Record<string, unknown> }>().data;
const login = (username: string, password: string) =>
  t.call(undefined, { method: 'POST', url: '/api/v1/auth/login', payload: { username, password } });

describe('email confirmation', () => {
  it('mails a link after registration; the account works before it is opened; the link confirms once', async () => {
    const u = await t.user('confirm');
    const mail = await smtp.waitFor(u.email);
    expect(mail.from).toBe('no-reply@pipsense.test');
    expect(mail.subject).toBe('Confirm your email address for PipSense');
    expect(mail.link).toBe(`https://pipsense.example.com/confirm_email?token=${mail.token}`);
    expect(mail.text).toContain('valid for 7 days');
    expect(await profile(u.token)).toMatchObject({ email: u.email, emailConfirmed: false });

    const res = await post(undefined, '/api/v1/auth/confirm_email', { token: mail.token });
    expect(res.json()).toEqual({ success: true, message: 'Your email address is confirmed. Thank you!' });
    expect(await profile(u.token)).toMatchObject({ emailConfirmed: true });
    // Opened again (a second tab, a mail scanner first): still fine.
    expect((await post(undefined, '/api/v1/auth/confirm_email', { token: mail.token })).statusCode).toBe(200);
    // Confirmed: no more links.
    const resend = await post(u.token, '/api/v1/auth/resend_confirmation');
    expect(resend.statusCode).toBe(400);
    expect(resend.json()).toMatchObject({ code: 'ALREADY_CONFIRMED' });
  });

  it('refuses an unknown or malformed token with a clear message', async () => {
    const unknown = await post(undefined, '/api/v1/auth/confirm_email', { token: 'A'.repeat(43) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      code: 'INVALID_LINK',
      message: 'This confirmation link is invalid or has expired. Sign in and ask for a new one from the banner.',
    });
    const junk = await post(undefined, '/api/v1/auth/confirm_email', { token: "' or 1=1 --" });
    expect(junk.statusCode).toBe(400);
    expect(junk.json<{ message: string }>().message).toBe(
      'The link token is incomplete: open the whole link from the email.',
    );
  });

  it('expires after 7 days; a resend (at most one a minute) mails a fresh link', async () => {
    const u = await t.user('expire');
    const first = await smtp.waitFor(u.email);
    const tooSoon = await post(u.token, '/api/v1/auth/resend_confirmation');
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.headers['retry-after']).toBe('60');

    advance(7 * 24 * 3600_000 + 1000);
    const late = await post(undefined, '/api/v1/auth/confirm_email', { token: first.token });
    expect(late.statusCode).toBe(400);
    expect(await profile(u.token)).toMatchObject({ emailConfirmed: false });

    const resend = await post(u.token, '/api/v1/auth/resend_confirmation');
    expect(resend.json()).toEqual({ success: true, message: `A new confirmation link is on its way to ${u.email}.` });
    const second = await smtp.waitFor(u.email, 2);
    expect(second.token).not.toBe(first.token);
    expect((await post(undefined, '/api/v1/auth/confirm_email', { token: second.token })).statusCode).toBe(200);
    expect(await profile(u.token)).toMatchObject({ emailConfirmed: true });
  });

  it('a new email address is unconfirmed until its own link is opened; the old link no longer confirms', async () => {
    const u = await t.user('move');
    const old = await smtp.waitFor(u.email);
    const next = `moved-${u.email}`;
    const res = await post(u.token, '/api/v1/account/update_username_email', {
      new_username: u.username,
      new_email: next,
    });
    expect(res.json()).toMatchObject({ data: { email: next, emailConfirmed: false } });
    const mail = await smtp.waitFor(next);
    const stale = await post(undefined, '/api/v1/auth/confirm_email', { token: old.token });
    expect(stale.statusCode).toBe(400);
    expect(stale.json<{ message: string }>().message).toMatch(/no longer uses/);
    expect((await post(undefined, '/api/v1/auth/confirm_email', { token: mail.token })).statusCode).toBe(200);
    expect(await profile(u.token)).toMatchObject({ email: next, emailConfirmed: true });
  });
});

describe('password reset', () => {
  const ask = (email: string) => post(undefined, '/api/v1/auth/request_password_reset', { email });

  it('answers the same for any email, and mails a link only to an account’s address', async () => {
    const u = await t.user('reset');
    await smtp.waitFor(u.email); // the confirmation
    const known = await ask(u.email.toUpperCase());
    const unknown = await ask('nobody-at-all@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ success: true, message: PASSWORD_RESET_REQUESTED });
    expect(unknown.json()).toEqual(known.json());
    expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(known.headers).sort());
    const mail = await smtp.waitFor(u.email, 2);
    expect(mail.subject).toBe('Reset your PipSense password');
    expect(mail.link).toBe(`https://pipsense.example.com/reset_password?token=${mail.token}`);
    expect(smtp.to('nobody-at-all@example.com')).toEqual([]);
  });

  it('sets the new password once, ends every session, and the link cannot be used again', async () => {
    const u = await t.user('reset');
    await smtp.waitFor(u.email);
    await ask(u.email);
    const mail = await smtp.waitFor(u.email, 2);
    const weak = await post(undefined, '/api/v1/auth/reset_password', { token: mail.token, password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json<{ message: string }>().message).toBe('Password must be 8–128 characters.');

    const res = await post(undefined, '/api/v1/auth/reset_password', {
      token: mail.token,
      password: 'a fresh start here',
    });
    expect(res.json()).toEqual({
      success: true,
      message: 'Your password has been reset. Sign in with the new password.',
    });
    expect((await t.call(u.token, { method: 'GET', url: '/api/v1/auth/me' })).statusCode).toBe(401);
    expect((await login(u.username, u.password)).statusCode).toBe(401);
    const signedIn = await login(u.username, 'a fresh start here');
    expect(signedIn.statusCode).toBe(200);
    // The link proved the address.
    expect(await profile(signedIn.json<{ token: string }>().token)).toMatchObject({ emailConfirmed: true });

    const again = await post(undefined, '/api/v1/auth/reset_password', {
      token: mail.token,
      password: 'another one again',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      code: 'INVALID_LINK',
      message: 'This password reset link is invalid, used or expired. Ask for a new one from the sign-in page.',
    });
    expect((await login(u.username, 'a fresh start here')).statusCode).toBe(200);
  });

  it('is valid for 1 hour, and stored only as its SHA-256', async () => {
    const u = await t.user('late');
    await smtp.waitFor(u.email);
    await ask(u.email);
    const mail = await smtp.waitFor(u.email, 2);
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256').update(mail.token!).digest('hex');
    const { hashLinkToken } = await import('./recovery.service');
    expect(hashLinkToken(mail.token!)).toBe(hash);

    advance(3600_000 + 1000);
    const late = await post(undefined, '/api/v1/auth/reset_password', { token: mail.token, password: 'too late now!' });
    expect(late.statusCode).toBe(400);
    expect((await login(u.username, u.password)).statusCode).toBe(200);
  });
});

describe('feedback', () => {
  it('stores the message and mails it to SUPPORT_EMAIL, replying to the user', async () => {
    const u = await t.user('fb');
    const res = await post(u.token, '/api/v1/support/feedback', {
      message: '  The calendar is great.\nMore please!  ',
    });
    expect(res.json()).toEqual({
      success: true,
      message: 'Thank you for your feedback! It has been sent to the support team.',
    });
    const mail = await smtp.waitFor('support@pipsense.test', smtp.to('support@pipsense.test').length || 1);
    expect(mail.subject).toBe(`PipSense feedback from ${u.username}`);
    expect(mail.replyTo).toBe(u.email);
    expect(mail.text).toContain('The calendar is great.\nMore please!');
  });

  it('refuses an empty or oversized message, and a signed-out sender', async () => {
    const u = await t.user('fb');
    const empty = await post(u.token, '/api/v1/support/feedback', { message: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ message: string }>().message).toBe('Write a message first.');
    const big = await post(u.token, '/api/v1/support/feedback', { message: 'x'.repeat(5001) });
    expect(big.json<{ message: string }>().message).toBe('A feedback message can be at most 5000 characters.');
    expect((await post(undefined, '/api/v1/support/feedback', { message: 'hi' })).statusCode).toBe(401);
  });

  it('takes at most 10 messages an hour from one user', async () => {
    const u = await t.user('fb');
    for (let i = 0; i < 10; i++)
      expect((await post(u.token, '/api/v1/support/feedback', { message: `note ${i}` })).statusCode).toBe(200);
    const eleventh = await post(u.token, '/api/v1/support/feedback', { message: 'one more' });
    expect(eleventh.statusCode).toBe(429);
    advance(3600_000 + 1000);
    expect((await post(u.token, '/api/v1/support/feedback', { message: 'later' })).statusCode).toBe(200);
  });
});
