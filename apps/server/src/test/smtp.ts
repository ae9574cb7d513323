import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the loopback SMTP server received it: envelope, subject and the decoded text body. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  replyTo: string | undefined;
  text: string;
  /** The first `…?token=…` link in the text, and its token. */
  link: string | undefined;
  token: string | undefined;
  /** A multipart mail's parts (content type without parameters, decoded body); empty for a one-part mail. */
  parts: Array<{ type: string; body: string }>;
}

/** Undoes quoted-printable (RFC 2045): soft line breaks, then `=XX` bytes. */
function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => `%${hex}`);
  try {
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  } catch {
    return bytes;
  }
}

/** An entity's headers (names in lower case) and its body decoded from its transfer encoding. */
function entity(raw: string): { headers: Map<string, string>; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map(
    head.split('\r\n').map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as const;
    }),
  );
  let body = raw.slice(split + 4).replace(/\r\n\.\r\n$/, '');
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  if (encoding === 'quoted-printable') body = decodeQuotedPrintable(body);
  else if (encoding === 'base64') body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return { headers, body };
}

/** The parts of a multipart body (one level), each decoded. */
function partsOf(contentType: string | undefined, body: string): Array<{ type: string; body: string }> {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1];
  if (!contentType?.toLowerCase().startsWith('multipart/') || !boundary) return [];
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((part) => !part.startsWith('--'))
    .map((part) => {
      const e = entity(part.replace(/^\r\n/, ''));
      const type = (e.headers.get('content-type') ?? 'text/plain').split(';')[0]!.trim().toLowerCase();
      return { type, body: e.body.replace(/\r\n$/, '').replace(/\r\n/g, '\n') };
    });
}

function parse(raw: string, from: string, to: string[]): ReceivedMail {
  const { headers, body } = entity(raw);
  const parts = partsOf(headers.get('content-type'), body);
  const text = parts.find((p) => p.type === 'text/plain')?.body ?? body;
  const link = /https?:\/\/\S+\?token=([A-Za-z0-9_-]+)/.exec(text);
  return {
    from,
    to,
    subject: headers.get('subject') ?? '',
    replyTo: headers.get('reply-to'),
    text: text.replace(/\r\n/g, '\n'),
    link: link?.[0],
    token: link?.[1],
    parts,
  };
}

/**
 * A real SMTP server on loopback (smtp-server), no TLS and no login, keeping what it receives: the app's mailer
 * talks to it as to any mail server (`url` is the SMTP_URL to give the app).
 */
export async function startSmtp() {
  const mails: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push(
          parse(
            Buffer.concat(chunks).toString('utf8'),
            session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** The mails to this address so far. */
    to: (address: string) => mails.filter((m) => m.to.includes(address)),
    /** Waits (up to 20 s, room for a loaded machine) for the `n`th mail to this address (1 = the first). */
    async waitFor(address: string, n = 1): Promise<ReceivedMail> {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const got = mails.filter((m) => m.to.includes(address));
        if (got.length >= n) return got[n - 1]!;
        if (Date.now() > deadline) throw new Error(`No mail #${n} to ${address} within 20 s (${mails.length} in all)`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type TestSmtp = Awaited<ReturnType<typeof startSmtp>>;
