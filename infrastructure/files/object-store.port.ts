/**
 * Object storage for file bytes (the "S3 upload" feature of spec §1). Keys are content hashes, so
 * a put is idempotent and a key always means the same bytes.
 */
export type ObjectStore = {
  put(key: string, bytes: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  /** Removes an object; removing one that is not there is no error. */
  remove(key: string): Promise<void>;
};
