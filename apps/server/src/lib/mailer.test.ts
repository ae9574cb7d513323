import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from './mailer';
import { startSmtp, type TestSmtp } from '../test/smtp';

const logged = () => {
  const lines: Array<{ details: object; message: string }> = [];
  return { lines, log: { warn: (details: object, message: string) => lines.push({ details, message }) } };
};

describe('without SMTP_URL', () => {
  it('writes each mail as one warn line with its link, so a self-hoster can still use it', async () => {
    const { lines, log } = logged();
    const mailer = createMailer({ from: 'PipSense <no-reply@localhost>', log });
    expect(mailer.sends).toBe(false);
    await mailer.send({
      to: 'ann@example.com',
      subject: 'Reset your PipSense password',
      text: 'Hello Ann,\n\nOpen this link:\nhttp://localhost:3000/reset_password?token=abc\n',
      link: 'http://localhost:3000/reset_password?token=abc',
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.message).toBe(
      'Mail not sent (SMTP_URL is not set): "Reset your PipSense password" for ann@example.com: http://localhost:3000/reset_password?token=abc',
    );
    expect(lines[0]!.message).not.toContain('\n');
  });
});

describe('with SMTP_URL', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(() => smtp.close());

  it('delivers through the SMTP server', async () => {
    const { lines, log } = logged();
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'PipSense <no-reply@pipsense.test>', log });
    await mailer.send({ to: 'bo@example.com', subject: 'Héllo', text: 'Ünïcode and a long line '.repeat(10) });
    const mail = await smtp.waitFor('bo@example.com');
    expect(mail.text).toContain('Ünïcode and a long line Ünïcode');
    expect(lines).toEqual([]);
    mailer.close();
  });

  it('fails with a message naming the mail and the reason when the server cannot be reached', async () => {
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', from: 'x@y.z', log: logged().log, timeoutMs: 2000 });
    await expect(mailer.send({ to: 'cy@example.com', subject: 'Hi', text: 'x' })).rejects.toThrow(
      /^The email "Hi" to cy@example.com could not be sent: .*ECONNREFUSED/,
    );
    mailer.close();
  });
});
