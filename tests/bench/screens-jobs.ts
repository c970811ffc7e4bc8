// The screens bench's two job screens (screens.bench.ts): the users export of every user (request
// to file ready, through the pg-boss job) beside the same rows by one SELECT written by the same
// xlsx writer; and a users import of 10,000 rows into the seeded organisation (upload with its
// precheck, then the job until the import says completed) beside plain INSERTs of the same rows.

import ExcelJS from 'exceljs';
import type pg from 'pg';
import { roleLabel } from '../../domain/permissions/roles.ts';
import { createExceljsSpreadsheet } from '../../infrastructure/reports/exceljs-spreadsheet.ts';
import type { Cell } from '../../infrastructure/reports/spreadsheet.port.ts';
import { importXlsx, person } from '../support/import-files.ts';

// biome-ignore lint/suspicious/noExplicitAny: the API's answers are JSON, read by the fields named.
type Json = any;
/** A request as the admin, through the platform (app.inject); waits for the read models its answer's position names. */
export type Call = (method: 'GET' | 'POST', url: string, payload?: object | Buffer, contentType?: string) => Promise<Json>;

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The ids in the first column of an xlsx's first sheet, below its header. */
const idsInFile = async (bytes: Buffer) => {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const ids: number[] = [];
  book.worksheets[0]?.eachRow((row, n) => {
    if (n > 1) ids.push(Number(row.getCell(1).value));
  });
  return ids;
};

/** The users export's rows by one statement: the columns usersForExport reads, every user by id. */
const PLAIN_USERS = `
  select u.id, u.username, u.first_name, u.middle_name, u.last_name, u.email, u.phone, (select p.name from rm.professions p where p.id = u.profession_id) as profession,
         u.other_job, u.licence_number, u.chamber_membership_number, u.status, u.registered_at, u.last_login_at,
         coalesce((select json_agg(json_build_object('roleId', r.role_id, 'unitName', un.name, 'companyName', coalesce(c.name, uc.name)) order by r.role_id, un.name)
                     from rm.user_roles r left join rm.units un on un.id = r.unit_id left join rm.companies c on c.id = r.company_id
                     left join rm.companies uc on uc.id = un.company_id
                    where r.user_id = u.id), '[]'::json) as roles
    from rm.users u order by u.id`;

/**
 * The users export of every company and status, timed from the request to the export's record
 * saying finished (the file stored); its file read back for the ids it holds. Then the baseline:
 * the same rows by one SELECT on the plain pool, written by the same xlsx writer (exceljs).
 */
export const timeUsersExport = async (call: Call, pool: pg.Pool, fileOf: (id: number) => Promise<Buffer>) => {
  const started = performance.now();
  const { id } = await call('POST', '/api/exports', { kind: 'users', parameters: { companyId: 0, status: 'all' } });
  let item: Json;
  for (;;) {
    item = ((await call('GET', '/api/exports')).items as Json[]).find((e) => e.id === id);
    if (item?.status === 'finished') break;
    if (item?.status === 'error') throw new Error(`the bench export failed: ${JSON.stringify(item)}`);
    await sleep(100);
  }
  const platformSeconds = (performance.now() - started) / 1000;

  const plainStarted = performance.now();
  const rows = (await pool.query(PLAIN_USERS)).rows;
  const selectSeconds = (performance.now() - plainStarted) / 1000;
  const cells: Cell[][] = rows.map((u) => [
    u.id,
    u.username,
    u.first_name,
    u.middle_name,
    u.last_name,
    u.email,
    u.phone,
    u.profession,
    u.other_job,
    u.licence_number,
    u.chamber_membership_number,
    (u.roles as { roleId: number; unitName: string | null; companyName: string | null }[])
      .map((r) => [roleLabel(r.roleId), r.unitName ?? r.companyName].filter(Boolean).join(' – '))
      .join(', '),
    u.status,
    u.registered_at,
    u.last_login_at,
  ]);
  const bytes = await createExceljsSpreadsheet().table({ sheet: 'Uporabniki', header: Array.from({ length: 15 }, (_, i) => `Stolpec ${i + 1}`), rows: cells });
  const plainSeconds = (performance.now() - plainStarted) / 1000;

  // The same data: the platform's file holds the ids the plain SELECT read, in the same order.
  const exported = await idsInFile(await fileOf(id));
  const plainIds = rows.map((u) => Number(u.id));
  if (JSON.stringify(exported) !== JSON.stringify(plainIds))
    throw new Error(`the export's ${exported.length} ids differ from the plain SELECT's ${plainIds.length}`);
  return {
    rows: item.rows as number,
    bytes: item.bytes as number,
    platformSeconds,
    plainRows: rows.length,
    plainBytes: bytes.length,
    selectSeconds,
    plainSeconds,
  };
};

/**
 * A users import of `count` rows spread over the seeded companies' units: the upload with its
 * precheck, then the job until the import's record says completed. Then the baseline: the same rows
 * as single-row INSERTs into a plain table (32 connections), and as one multi-row INSERT.
 */
export const timeUsersImport = async (call: Call, pool: pg.Pool, count: number, sizes: { companies: number; unitsPerCompany: number }) => {
  const place = (i: number) => {
    const company = 1 + (i % sizes.companies);
    return {
      company: `Lekarne ${company}`,
      unit: `Enota ${(company - 1) * sizes.unitsPerCompany + 1 + (Math.floor(i / sizes.companies) % sizes.unitsPerCompany)}`,
    };
  };
  const people = Array.from({ length: count }, (_, i) => person(i, { ...place(i), profession: 'Poklic 1' }, 'uvoz'));
  const file = await importXlsx(people);
  let started = performance.now();
  const uploaded = await call('POST', '/api/imports?name=bench.xlsx', file, XLSX);
  const precheckSeconds = (performance.now() - started) / 1000;
  if (uploaded.problemCount > 0) throw new Error(`the bench import file has ${uploaded.problemCount} problems`);
  started = performance.now();
  await call('POST', `/api/imports/${uploaded.id}/start`, { sendWelcome: false });
  let detail: Json;
  for (;;) {
    detail = await call('GET', `/api/imports/${uploaded.id}`);
    if (detail.status === 'completed') break;
    if (detail.status === 'failed') throw new Error('the bench import failed');
    await sleep(100);
  }
  const jobSeconds = (performance.now() - started) / 1000;
  if (detail.created !== count) throw new Error(`the bench import created ${detail.created} of ${count} users`);

  await pool.query(`create table public.bench_screen_import (id bigserial primary key, username text not null unique, email text not null unique,
    first_name text not null, last_name text not null, phone text not null, unit text not null, created_at timestamptz not null default now())`);
  const values = (p: (typeof people)[number]) => [p.username, p.email, p.firstName, p.lastName, p.phone, p.unit].map(String);
  let next = 0;
  started = performance.now();
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < people.length) {
        const p = people[next++] as (typeof people)[number];
        await pool.query(
          'insert into public.bench_screen_import (username, email, first_name, last_name, phone, unit) values ($1, $2, $3, $4, $5, $6)',
          values(p),
        );
      }
    }),
  );
  const plainSingleSeconds = (performance.now() - started) / 1000;
  await pool.query('truncate public.bench_screen_import');
  started = performance.now();
  const columns = Array.from({ length: 6 }, (_, c) => people.map((p) => values(p)[c]));
  await pool.query(
    `insert into public.bench_screen_import (username, email, first_name, last_name, phone, unit)
     select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])`,
    columns,
  );
  const plainBulkSeconds = (performance.now() - started) / 1000;
  await pool.query('drop table public.bench_screen_import');
  return { created: detail.created as number, fileBytes: file.length, precheckSeconds, jobSeconds, plainSingleSeconds, plainBulkSeconds };
};
