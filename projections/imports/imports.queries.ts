import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { importProblemRule } from '../../domain/imports/user-import.rules.ts';
import { ROW_OUTCOMES } from '../../domain/imports/user-import.ts';
import type { ExistingUser, ImportReferences } from '../../domain/imports/user-import-precheck.ts';

export type ImportReadDb = DatabasePool;

const iso = (column: string) => sql.fragment`to_char(${sql.identifier(['i', column])} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** What a file's rows name, by name: professions, companies and units (the organisation read model). */
export const importReferences = async (db: ImportReadDb): Promise<ImportReferences> => {
  const [professions, companies, units] = await Promise.all([
    db.any(
      sql.type(z.object({ id: z.number(), name: z.string(), needsLicence: z.boolean(), needsChamber: z.boolean() }))`
        select id, name, needs_licence_number as "needsLicence", needs_chamber_number as "needsChamber" from rm.professions`,
    ),
    db.any(sql.type(z.object({ id: z.number(), name: z.string() }))`select id, name from rm.companies`),
    db.any(sql.type(z.object({ id: z.number(), companyId: z.number(), name: z.string() }))`select id, company_id as "companyId", name from rm.units`),
  ]);
  return { professions, companies, units };
};

/** The users holding any of these usernames or e-mails (compared lowercased), for the precheck's "user exists". */
export const existingUsers = async (db: ImportReadDb, usernames: readonly string[], emails: readonly string[]): Promise<ExistingUser[]> => {
  if (usernames.length === 0 && emails.length === 0) return [];
  const lower = (values: readonly string[]) => [...new Set(values.map((v) => v.trim().toLowerCase()))];
  return [
    ...(await db.any(
      sql.type(z.object({ id: z.number(), username: z.string(), email: z.string(), active: z.boolean() }))`
        select id, username, email, status = 'active' as active from rm.users
        where lower(username) = any(${sql.array(lower(usernames), 'text')}) or lower(email) = any(${sql.array(lower(emails), 'text')})`,
    )),
  ];
};

const counts = { created: z.number(), updated: z.number(), skipped: z.number(), failed: z.number() };

export const IMPORT_STATUSES = ['blocked', 'ready', 'running', 'completed', 'failed'] as const;

export const importListItem = z.object({
  id: z.number(),
  fileName: z.string(),
  uploadedBy: z.object({ id: z.number(), name: z.string() }).nullable(),
  uploadedAt: z.string(),
  rows: z.number(),
  status: z.enum(IMPORT_STATUSES),
  problemCount: z.number(),
  processed: z.number(),
  ...counts,
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});

export const importDetail = importListItem.extend({
  existing: z.number(),
  sendWelcome: z.boolean().nullable(),
  startedBy: z.object({ id: z.number(), name: z.string() }).nullable(),
  problems: z.array(importProblemRule),
  error: z.string().nullable(),
});

const person = (column: string) =>
  sql.fragment`(select json_build_object('id', u.id, 'name', concat_ws(' ', u.first_name, u.middle_name, u.last_name)) from rm.users u where u.id = ${sql.identifier(['i', column])})`;

const listColumns = sql.fragment`i.id, i.file_name as "fileName", ${person('uploaded_by')} as "uploadedBy", ${iso('uploaded_at')} as "uploadedAt",
  i.row_count as rows, i.status, i.problem_count as "problemCount", i.processed, i.created, i.updated, i.skipped, i.failed,
  ${iso('started_at')} as "startedAt", ${iso('finished_at')} as "finishedAt"`;

/** The imports, newest first, a page at a time. */
export const listImports = async (db: ImportReadDb, page: number, pageSize: number) => {
  const [items, total] = await Promise.all([
    db.any(sql.type(importListItem)`
      select ${listColumns} from rm.imports i order by i.uploaded_at desc, i.id desc limit ${pageSize} offset ${(page - 1) * pageSize}`),
    db.oneFirst(sql.type(z.object({ n: z.number() }))`select count(*)::int as n from rm.imports`),
  ]);
  return { items: [...items], total };
};

export const getImport = async (db: ImportReadDb, id: number) =>
  db.maybeOne(sql.type(importDetail)`
    select ${listColumns}, i.existing, i.send_welcome as "sendWelcome", ${person('started_by')} as "startedBy", i.problems, i.error
    from rm.imports i where i.id = ${id}`);

export const importRowItem = z.object({
  row: z.number(),
  outcome: z.enum(ROW_OUTCOMES),
  message: z.string().nullable(),
  user: z.object({ id: z.number(), username: z.string(), name: z.string() }).nullable(),
});

/** What became of each row, in sheet order, optionally of one outcome; with the user (as the users read model names them now). */
export const listImportRows = async (
  db: ImportReadDb,
  id: number,
  options: { outcome?: (typeof ROW_OUTCOMES)[number] | undefined; page: number; pageSize: number },
) => {
  const filter = options.outcome ? sql.fragment`and r.outcome = ${options.outcome}` : sql.fragment``;
  const [items, total] = await Promise.all([
    db.any(sql.type(importRowItem)`
      select r.sheet_row as row, r.outcome, r.message,
        (select json_build_object('id', u.id, 'username', u.username, 'name', concat_ws(' ', u.first_name, u.middle_name, u.last_name))
           from rm.users u where u.id = r.user_id) as user
      from rm.import_rows r where r.import_id = ${id} ${filter}
      order by r.sheet_row limit ${options.pageSize} offset ${(options.page - 1) * options.pageSize}`),
    db.oneFirst(sql.type(z.object({ n: z.number() }))`select count(*)::int as n from rm.import_rows r where r.import_id = ${id} ${filter}`),
  ]);
  return { items: [...items], total };
};
