/**
 * One-dimensional arrays in PostgreSQL's binary wire format, for parameters node-postgres sends as
 * they are (a Buffer goes out in binary). The text form (`{"...","..."}`) costs escaping every
 * quote and backslash of the event JSON in Node and unescaping it character by character in
 * array_in; the binary form is a length and the bytes (decision 0043: 50-70 µs of a 500 µs
 * append call of 40 events).
 *
 * Layout: ndim, has-nulls flag, element type oid, then per dimension its length and lower bound,
 * then per element its byte length and its bytes. No element may be null.
 */

/** Element type oids (pg_type); array_recv refuses an array whose oid is not the parameter's element type. */
export const PG_TYPE = { int4: 23, int8: 20, text: 25, json: 114, uuid: 2950 } as const;

const HEADER_BYTES = 20;

const withHeader = (oid: number, length: number, bodyBytes: number): Buffer => {
  if (length === 0) {
    // An empty array has no dimensions.
    const empty = Buffer.alloc(12);
    empty.writeUInt32BE(oid, 8);
    return empty;
  }
  const buffer = Buffer.allocUnsafe(HEADER_BYTES + bodyBytes);
  buffer.writeInt32BE(1, 0);
  buffer.writeInt32BE(0, 4);
  buffer.writeUInt32BE(oid, 8);
  buffer.writeInt32BE(length, 12);
  buffer.writeInt32BE(1, 16);
  return buffer;
};

/** text[] or json[] (json's binary form is its text): UTF-8 bytes of each string. */
export const stringArray = (oid: typeof PG_TYPE.text | typeof PG_TYPE.json, values: readonly string[]): Buffer => {
  const lengths = values.map((value) => Buffer.byteLength(value));
  const buffer = withHeader(
    oid,
    values.length,
    lengths.reduce((sum, length) => sum + 4 + length, 0),
  );
  let offset = HEADER_BYTES;
  values.forEach((value, i) => {
    buffer.writeInt32BE(lengths[i] as number, offset);
    offset += 4;
    offset += buffer.write(value, offset, 'utf8');
  });
  return buffer;
};

/** Elements of one width: each is its length (the width) and what `write` puts at the offset given. */
const fixedWidthArray = <T>(oid: number, width: number, values: readonly T[], write: (buffer: Buffer, value: T, at: number) => void): Buffer => {
  const buffer = withHeader(oid, values.length, values.length * (4 + width));
  values.forEach((value, i) => {
    const at = HEADER_BYTES + i * (4 + width);
    buffer.writeInt32BE(width, at);
    write(buffer, value, at + 4);
  });
  return buffer;
};

export const int4Array = (values: readonly number[]): Buffer => fixedWidthArray(PG_TYPE.int4, 4, values, (buffer, value, at) => buffer.writeInt32BE(value, at));

export const int8Array = (values: readonly bigint[]): Buffer =>
  fixedWidthArray(PG_TYPE.int8, 8, values, (buffer, value, at) => buffer.writeBigInt64BE(value, at));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The form uuidArray writes (uuid_in takes more spellings; ours are all hyphenated). */
export const isUuid = (value: string): boolean => UUID.test(value);

const HYPHENS = [8, 13, 18, 23];

/**
 * uuid[]: 16 bytes each. Callers check each id with isUuid first; here a malformed one still
 * throws rather than being written short: the hyphens must stand where they belong and the hex
 * writes, which stop at the first character that is not hex, must fill all 16 bytes (checked
 * so, not with the regular expression again, which cost 3 % of an append batch's CPU in Node).
 */
export const uuidArray = (values: readonly string[]): Buffer =>
  fixedWidthArray(PG_TYPE.uuid, 16, values, (buffer, value, at) => {
    const written =
      value.length === 36 && HYPHENS.every((h) => value.charCodeAt(h) === 45)
        ? buffer.write(value.slice(0, 8), at, 4, 'hex') +
          buffer.write(value.slice(9, 13), at + 4, 2, 'hex') +
          buffer.write(value.slice(14, 18), at + 6, 2, 'hex') +
          buffer.write(value.slice(19, 23), at + 8, 2, 'hex') +
          buffer.write(value.slice(24), at + 10, 6, 'hex')
        : 0;
    if (written !== 16) throw new RangeError(`Not a UUID: ${value.slice(0, 40)}`);
  });
