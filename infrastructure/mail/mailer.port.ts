/** A message as the platform sends it: the port knows nothing of what it is about (DESIGN §10). */
export type MailMessage = {
  readonly to: string;
  readonly subject: string;
  /** The plain-text part: every client can show it. */
  readonly text: string;
  /** The HTML part: simple markup with inline styles, as common mail clients render it. */
  readonly html: string;
  /** A stable id for the message (the job's), so a retried send can be recognised. */
  readonly id: string;
};

export type Mailer = {
  /** Sends or stores the message; throws when the receiving side refuses it (the job then retries). */
  send(message: MailMessage): Promise<{ messageId: string }>;
};

/** "ana.novak@lekarna.si" -> "a***@l***.si": enough to follow a message in a log, not enough to know whose it is. */
export const maskAddress = (address: string) => {
  const [local = '', domain = ''] = address.split('@');
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${local.slice(0, 1)}***@${host.slice(0, 1)}***${tld}`;
};

/** The local outbox (no SMTP configured): what an admin reads in the UI. */
export type OutboxMessage = { id: string; to: string; subject: string; text: string; html: string; createdAt: string };

export type Outbox = {
  list(options: { search?: string | undefined; limit: number }): Promise<OutboxMessage[]>;
  get(id: string): Promise<OutboxMessage | null>;
  /** Deletes every message to these addresses (a person's erasure, decision 0019); answers how many went. */
  forget(addresses: readonly string[]): Promise<number>;
};
