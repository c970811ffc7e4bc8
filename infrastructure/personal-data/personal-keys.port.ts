/**
 * Each person's data key (decision 0019). `null` means the person was erased: their key is gone and
 * what was encrypted with it can no longer be read by anyone.
 */
export type PersonalKeys = {
  /** The person's key, made on first use; null once they were erased. */
  keyFor(userId: number): Promise<Buffer | null>;
  /** Keys of the people asked for that have one (null: erased); people never given a key are absent. */
  existingKeys(userIds: readonly number[]): Promise<ReadonlyMap<number, Buffer | null>>;
  /** Destroys the key for good. */
  erase(userId: number): Promise<void>;
};
