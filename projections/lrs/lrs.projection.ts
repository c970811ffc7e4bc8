import { sql } from 'slonik';
import type { StoredStatementData } from '../../domain/lrs/lrs-statement.ts';
import { isObject } from '../../domain/lrs/xapi.ts';
import { defineProjection } from '../../infrastructure/projections/projection.port.ts';

const parsed = (text: string) => {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
};

/**
 * The statements of the platform's LRS (issue 35 item 4) as `GET /xapi/statements` reads them: one
 * row per statement, with the keys it is filtered by (verb, actor, activity, registration, stored)
 * and, for a learner's statements, whose they are (user, course, units and companies then) so a
 * report reader sees only those of their reach. A voiding statement marks the one it voids; which
 * arrives first does not matter, so a rebuild equals the live table.
 */
export const lrsProjection = defineProjection({
  name: 'lrs',
  version: 1,
  tables: ['lrs_statements'],
  setup: (table) => [
    sql.unsafe`create table ${table('lrs_statements')} (
      statement_id text primary key,
      source text not null,
      registration text,
      user_id integer,
      course_id integer,
      unit_ids integer[] not null,
      company_ids integer[] not null,
      verb text not null,
      actor_key text,
      activity_id text,
      voids text,
      voided boolean not null default false,
      fingerprint text not null,
      stored timestamptz not null,
      statement jsonb not null)`,
    sql.unsafe`create index on ${table('lrs_statements')} (stored desc, statement_id desc)`,
    sql.unsafe`create index on ${table('lrs_statements')} (registration)`,
    sql.unsafe`create index on ${table('lrs_statements')} (actor_key)`,
    sql.unsafe`create index on ${table('lrs_statements')} (verb)`,
    sql.unsafe`create index on ${table('lrs_statements')} (activity_id)`,
    sql.unsafe`create index on ${table('lrs_statements')} (user_id)`,
    sql.unsafe`create index on ${table('lrs_statements')} (voids)`,
  ],
  handlers: {
    LrsStatementStored: async ({ tx, table }, event) => {
      const d = event.data as StoredStatementData;
      const statement = parsed(d.statement);
      // After an erasure (decision 0019) a rebuild reads a placeholder, not a statement: nothing to keep.
      if (!statement) return;
      const t = table('lrs_statements');
      await tx.query(sql.unsafe`
        insert into ${t} (statement_id, source, registration, user_id, course_id, unit_ids, company_ids, verb, actor_key, activity_id, voids, voided, fingerprint, stored, statement)
        values (${d.statementId}, ${d.source}, ${d.registration}, ${d.userId}, ${d.courseId}, ${sql.array(d.unitIds, 'int4')}, ${sql.array(d.companyIds, 'int4')},
                ${d.verb}, ${d.actorKey}, ${d.activityId}, ${d.voids},
                ${d.voids === null} and exists (select 1 from ${t} v where v.voids = ${d.statementId}), ${d.fingerprint}, ${d.stored}::timestamptz, ${JSON.stringify(statement)}::jsonb)
        on conflict (statement_id) do nothing`);
      // xAPI §2.1.4: a voiding statement cannot itself be voided.
      if (d.voids !== null) await tx.query(sql.unsafe`update ${t} set voided = true where statement_id = ${d.voids} and voids is null`);
    },
    UserErased: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`delete from ${table('lrs_statements')} where user_id = ${Number(event.streamName.slice('user-'.length))}`);
    },
  },
});
