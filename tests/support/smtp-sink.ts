import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { to: string; subject: string; text: string; html: string; parsed: ParsedMail };

/**
 * A real SMTP server for tests (npm `smtp-server`): accepts every message, parses it with
 * `mailparser`, keeps it. `refuse` makes it answer 550 to recipients for a while (a failing relay).
 */
export const startSmtpSink = async (listenPort = 0) => {
  const received: ReceivedMail[] = [];
  let refusing = false;
  const waiting: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo: (_address, _session, callback) => {
      if (refusing) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      return callback();
    },
    onData: (stream, _session, callback) => {
      simpleParser(stream)
        .then((parsed) => {
          const to = Array.isArray(parsed.to) ? (parsed.to[0]?.text ?? '') : (parsed.to?.text ?? '');
          received.push({ to, subject: parsed.subject ?? '', text: parsed.text ?? '', html: typeof parsed.html === 'string' ? parsed.html : '', parsed });
          for (const wake of waiting.splice(0)) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse: (value: boolean) => {
      refusing = value;
    },
    /** The first mail to `to` matching `subject`, waiting for it to arrive (up to `timeoutMs`). */
    waitFor: async (to: string, subject: RegExp, timeoutMs = 15_000): Promise<ReceivedMail> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find((m) => m.to.toLowerCase().includes(to.toLowerCase()) && subject.test(m.subject));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} (got: ${received.map((m) => `${m.to}: ${m.subject}`).join('; ')})`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** The token in a link of a mail's text part: `...?link=<token>` (not `token`, which the UI exchanges as a login token). */
export const tokenIn = (mail: ReceivedMail) => {
  const match = /[?&]link=([^\s&"<]+)/.exec(mail.text);
  if (!match) throw new Error(`no link with a token in: ${mail.text}`);
  return decodeURIComponent(match[1] as string);
};
