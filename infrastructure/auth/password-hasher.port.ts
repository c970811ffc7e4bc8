export type PasswordHasher = {
  hash(password: string): Promise<string>;
  /** False for a wrong password or a malformed hash; never throws for either. */
  verify(hash: string, password: string): Promise<boolean>;
  /** A valid hash of no one's password: verified against when a user is unknown, so timing says nothing. */
  readonly decoyHash: string;
};
