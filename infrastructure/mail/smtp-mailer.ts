import nodemailer from 'nodemailer';
import type { Mailer } from './mailer.port.ts';

/** Mail through an SMTP server (`SMTP_URL`, e.g. smtp://user:pass@host:587), with nodemailer. */
export const createSmtpMailer = (options: { url: string; from: string }): Mailer => {
  const transport = nodemailer.createTransport(options.url);
  return {
    send: async (message) => {
      const info = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: `<${message.id}@medilearn>`,
        headers: { 'Content-Language': 'sl' },
      });
      return { messageId: info.messageId };
    },
  };
};
