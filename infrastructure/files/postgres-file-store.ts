import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { FileStore } from './file-store.port.ts';

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
  get: async (id) => {
    const { rows } = await pool.query<{ id: string; name: string; content_type: string; size: number; bytes: Buffer }>(
      'select id, name, content_type, size, bytes from public.files where id = $1',
      [id],
    );
    const row = rows[0];
    return row ? { id: Number(row.id), name: row.name, contentType: row.content_type, size: row.size, bytes: row.bytes } : null;
  },
});
