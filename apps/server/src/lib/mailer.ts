import nodemailer from 'nodemailer';

/**
 * One email: plain text, and an optional HTML part sent beside it (mail readers show the one they can); `link` is
 * what a reader without SMTP needs from it (written to the log instead).
 */
interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  link?: string;
}

export interface Mailer {
  /** True when mail really leaves (SMTP_URL set); false when it is written to the log. */
  readonly sends: boolean;
  send(mail: Mail): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl?: string | undefined;
  from: string;
  log: { warn(details: object, message: string): void };
  /** Socket timeouts of one delivery (default 15 s). */
  timeoutMs?: number;
}

/**
 * Mail through nodemailer over SMTP when `smtpUrl` is set; otherwise each mail is one warn line in the server log
 * (its subject, recipient and link), so a self-hoster without SMTP can still confirm and reset.
 */
export function createMailer({ smtpUrl, from, log, timeoutMs = 15_000 }: MailerOptions): Mailer {
  if (!smtpUrl)
    return {
      sends: false,
      send(mail) {
        const what = mail.link ?? mail.text.replace(/\s+/g, ' ').slice(0, 500);
        log.warn(
          { mailTo: mail.to, subject: mail.subject },
          `Mail not sent (SMTP_URL is not set): "${mail.subject}" for ${mail.to}: ${what}`,
        );
        return Promise.resolve();
      },
      close() {},
    };
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    sends: true,
    async send(mail) {
      try {
        await transport.sendMail({
          from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
          ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
        });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`The email "${mail.subject}" to ${mail.to} could not be sent: ${reason}`, { cause: error });
      }
    },
    close: () => transport.close(),
  };
}
