import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { FileStore } from './file-store.port.ts';

type Row = { id: string; name: string; content_type: string; size: number; created_by: number | null };
const info = (row: Row) => ({ id: Number(row.id), name: row.name, contentType: row.content_type, size: row.size, createdBy: row.created_by });

/** Files in PostgreSQL (bytea): one backup holds events and files, and a write is transactional. */
export const createPostgresFileStore = (pool: pg.Pool): FileStore => ({
  put: async ({ name, contentType, bytes, createdBy }) => {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const { rows } = await pool.query<{ id: string }>(
      'insert into public.files (name, content_type, size, sha256, bytes, created_by) values ($1, $2, $3, $4, $5, $6) returning id',
      [name, contentType, bytes.length, sha256, bytes, createdBy],
    );
    return { id: Number(rows[0]?.id) };
  },
  describe: async (id) => {
    const { rows } = await pool.query<Row>('select id, name, content_type, size, created_by from public.files where id = $1', [id]);
    return rows[0] ? info(rows[0]) : null;
  },
  get: async (id) => {
    const { rows } = await pool.query<Row & { bytes: Buffer }>('select id, name, content_type, size, created_by, bytes from public.files where id = $1', [id]);
    const row = rows[0];
    return row ? { ...info(row), bytes: row.bytes } : null;
  },
});
