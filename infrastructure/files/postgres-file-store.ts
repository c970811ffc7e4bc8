import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { FileStore } from './file-store.port.ts';
import type { ObjectStore } from './object-store.port.ts';

type Row = { id: string; name: string; content_type: string; size: number; created_by: number | null; storage: string; object_key: string | null };
const info = (row: Row) => ({ id: Number(row.id), name: row.name, contentType: row.content_type, size: row.size, createdBy: row.created_by });

/**
 * Files described in PostgreSQL. Their bytes are in the row (bytea: one backup holds events and
 * files) or, with the "S3 upload" feature of spec §1 on, in the object store under their content
 * hash; files stored either way are served either way, so switching the feature loses nothing.
 */
export const createPostgresFileStore = (
  pool: pg.Pool,
  options: { objects: ObjectStore | null; uploadToObjects: boolean } = { objects: null, uploadToObjects: false },
): FileStore => ({
  put: async ({ name, contentType, bytes, createdBy }) => {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const key = options.objects && options.uploadToObjects ? `files/${sha256.slice(0, 2)}/${sha256}` : null;
    if (options.objects && key) await options.objects.put(key, bytes);
    const { rows } = await pool.query<{ id: string }>(
      `insert into public.files (name, content_type, size, sha256, bytes, created_by, storage, object_key)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
      [name, contentType, bytes.length, sha256, key ? null : bytes, createdBy, key ? 'object' : 'postgres', key],
    );
    return { id: Number(rows[0]?.id) };
  },
  describe: async (id) => {
    const { rows } = await pool.query<Row>('select id, name, content_type, size, created_by, storage, object_key from public.files where id = $1', [id]);
    return rows[0] ? info(rows[0]) : null;
  },
  get: async (id) => {
    const { rows } = await pool.query<Row & { bytes: Buffer | null }>(
      'select id, name, content_type, size, created_by, storage, object_key, bytes from public.files where id = $1',
      [id],
    );
    const row = rows[0];
    if (!row) return null;
    if (row.storage === 'postgres' && row.bytes) return { ...info(row), bytes: row.bytes };
    if (!options.objects || !row.object_key) throw new Error(`file ${id} is in the object store, which is not configured`);
    const bytes = await options.objects.get(row.object_key);
    if (!bytes) throw new Error(`file ${id} is missing from the object store`);
    return { ...info(row), bytes };
  },
  remove: async (id) => {
    const { rows } = await pool.query<{ object_key: string | null }>('delete from public.files where id = $1 returning object_key', [id]);
    const key = rows[0]?.object_key;
    if (!key || !options.objects) return;
    // Keys are content hashes: the same bytes stored again share the object.
    const { rowCount } = await pool.query('select 1 from public.files where object_key = $1 limit 1', [key]);
    if (rowCount === 0) await options.objects.remove(key);
  },
});
