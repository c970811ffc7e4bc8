import { mailReaderURL } from './playwright.config.ts';

/** The suite's SMTP server (tests/e2e/mail-sink-server.ts) read over HTTP: mail the platform really sent. */
export type Mail = { to: string; subject: string; text: string };

/** Waits for a mail to `to` whose subject matches, that was not among `seen` (so a second code is a new mail). */
export const mailTo = async (to: string, subject: RegExp, seen = 0): Promise<Mail> => {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const all = (await (await fetch(`${mailReaderURL}/messages`)).json()) as Mail[];
    const matching = all.filter((m) => m.to.toLowerCase().includes(to.toLowerCase()) && subject.test(m.subject));
    if (matching.length > seen) return matching[seen] as Mail;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};
export const countMail = async (to: string, subject: RegExp) =>
  ((await (await fetch(`${mailReaderURL}/messages`)).json()) as Mail[]).filter((m) => m.to.toLowerCase().includes(to.toLowerCase()) && subject.test(m.subject))
    .length;
export const linkIn = (mail: Mail) => {
  const match = /https?:\/\/[^\s"<>]+[?&]link=[^\s"<>]+/.exec(mail.text);
  if (!match) throw new Error(`no link in: ${mail.text}`);
  return new URL(match[0]);
};
