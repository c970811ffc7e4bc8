import { createHash } from 'node:crypto';

/**
 * The platform's namespace for xAPI UUIDs (RFC 9562 §5.5, version 5). Fixed for good: a statement's
 * id is UUID v5 of its event's id under it, so a replay (a retry, a restart, a backfill) states the
 * same statement and the LRS keeps it once. Changing it would make every statement new to an LRS.
 */
export const XAPI_NAMESPACE = '4be552cf-396d-4a87-bc9a-13f7480b5d87';

/** UUID version 5 (SHA-1) of `name` under `namespace`. */
export const uuidV5 = (namespace: string, name: string): string => {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

/** UUID version 5 of `name` under the platform's xAPI namespace. */
export const xapiUuid = (name: string): string => uuidV5(XAPI_NAMESPACE, name);
