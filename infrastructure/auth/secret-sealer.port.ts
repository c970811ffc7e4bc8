/**
 * A secret that a later step must read again (the link in a confirmation mail, a 2FA code) travels
 * in its event sealed: encrypted and authenticated with the platform's key. The event store keeps
 * only the sealed form and a hash to check it against; the mail job unseals it to write the mail.
 */
export type SecretSealer = {
  seal(secret: string): string;
  /** The secret, or null when the sealed text was altered or sealed with another key. */
  unseal(sealed: string): string | null;
};
