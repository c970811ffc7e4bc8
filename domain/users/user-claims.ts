import { DomainError } from '../shared/domain-error.ts';
import { claimDecider, claimStream } from '../shared/unique-claim.ts';

/** Usernames and e-mails are unique (spec §5); taken: 422013 username, 422005 e-mail (spec §8). */
export const usernameClaim = {
  stream: (username: string) => claimStream('username', username),
  decider: claimDecider(() => new DomainError('422013', 'Uporabniško ime je že zasedeno.', { status: 422, field: 'username' })),
};

export const emailClaim = {
  stream: (email: string) => claimStream('useremail', email),
  decider: claimDecider(() => new DomainError('422005', 'E-naslov je že zaseden.', { status: 422, field: 'email' })),
};

/** A social identity (provider and its subject) belongs to one account at most. */
export const socialIdentityClaim = {
  stream: (platform: string, subject: string) => claimStream('socialidentity', `${platform}_${subject}`),
  decider: claimDecider(() => new DomainError('409', 'Ta račun pri ponudniku je že povezan z drugim uporabnikom.', { status: 409, field: 'social' })),
};
