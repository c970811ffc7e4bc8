import type pg from 'pg';
import type { PackageStructure } from '../../domain/packages/package-structure.ts';
import type { FileStore } from '../files/file-store.port.ts';
import { contentTypeOfPath } from './content-types.ts';
import type { PackageStore, StoredPackage } from './package-store.port.ts';

type Row = { id: string; structure: PackageStructure; entries: number; unpacked_bytes: string; size: number; created_by: number | null };
const storedOf = (row: Row): StoredPackage => ({
  id: Number(row.id),
  structure: row.structure,
  entries: row.entries,
  unpackedBytes: Number(row.unpacked_bytes),
  size: row.size,
  createdBy: row.created_by,
});

/** Packages in PostgreSQL (migration 0015), their bytes wherever the file store keeps files (decision 0016). */
export const createPackageStore = (pool: pg.Pool, files: FileStore): PackageStore => {
  const describe = async (id: number) => {
    const { rows } = await pool.query<Row>(
      `select p.id, p.structure, p.entries, p.unpacked_bytes, f.size, p.created_by
         from public.content_packages p join public.files f on f.id = p.file_id where p.id = $1`,
      [id],
    );
    return rows[0] ? storedOf(rows[0]) : null;
  };
  return {
    save: async ({ name, zip, files: entries, structure, createdBy }) => {
      const zipFile = await files.put({ name, contentType: 'application/zip', bytes: zip, createdBy });
      const stored: { path: string; fileId: number | null; contentType: string; size: number }[] = [];
      for (const [path, bytes] of entries) {
        const contentType = contentTypeOfPath(path);
        // The file store keeps no empty files; an empty one is served from its row alone.
        const fileId = bytes.length === 0 ? null : (await files.put({ name: path.split('/').pop() ?? path, contentType, bytes, createdBy })).id;
        stored.push({ path, fileId, contentType, size: bytes.length });
      }
      const unpacked = stored.reduce((sum, f) => sum + f.size, 0);
      const client = await pool.connect();
      try {
        await client.query('begin');
        const { rows } = await client.query<{ id: string }>(
          `insert into public.content_packages (file_id, standard, version, title, structure, entries, unpacked_bytes, created_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
          [zipFile.id, structure.standard, structure.version, structure.title, JSON.stringify(structure), stored.length, unpacked, createdBy],
        );
        const id = Number(rows[0]?.id);
        for (let i = 0; i < stored.length; i += 500) {
          const chunk = stored.slice(i, i + 500);
          await client.query(
            `insert into public.content_package_files (package_id, path, file_id, content_type, size)
             select $1, * from unnest($2::text[], $3::bigint[], $4::text[], $5::bigint[])`,
            [id, chunk.map((f) => f.path), chunk.map((f) => f.fileId), chunk.map((f) => f.contentType), chunk.map((f) => f.size)],
          );
        }
        await client.query('commit');
        return { id, structure, entries: stored.length, unpackedBytes: unpacked, size: zip.length, createdBy };
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
    describe,
    owners: async (ids) => {
      if (ids.length === 0) return [];
      const { rows } = await pool.query<{ id: string; created_by: number | null }>(
        'select id, created_by from public.content_packages where id = any($1::bigint[])',
        [[...ids]],
      );
      return rows.map((r) => ({ id: Number(r.id), createdBy: r.created_by }));
    },
    file: async (packageId, path) => {
      const { rows } = await pool.query<{ file_id: string | null; content_type: string }>(
        'select file_id, content_type from public.content_package_files where package_id = $1 and path = $2',
        [packageId, path],
      );
      const row = rows[0];
      if (!row) return null;
      if (row.file_id === null) return { contentType: row.content_type, bytes: Buffer.alloc(0) };
      const file = await files.get(Number(row.file_id));
      return file ? { contentType: row.content_type, bytes: file.bytes } : null;
    },
  };
};
