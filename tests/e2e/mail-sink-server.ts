import { createServer } from 'node:http';
import { startSmtpSink } from '../support/smtp-sink.ts';

/**
 * The end-to-end suite's mail server: a real SMTP server (smtp-server, mailparser) the platform
 * delivers to (SMTP_URL), and a small HTTP reader the browser tests ask for what arrived. Started
 * by Playwright beside the platform (playwright.config.ts).
 */
const smtpPort = Number(process.env.E2E_SMTP_PORT);
const httpPort = Number(process.env.E2E_MAIL_PORT);
const sink = await startSmtpSink(smtpPort);

const server = createServer((request, response) => {
  if (request.url === '/health') {
    response.writeHead(200).end('ok');
    return;
  }
  if (request.url === '/messages') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(sink.received.map(({ to, subject, text, html }) => ({ to, subject, text, html }))));
    return;
  }
  response.writeHead(404).end();
});
server.listen(httpPort, '127.0.0.1');

const stop = () => {
  server.close();
  void sink.close().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
