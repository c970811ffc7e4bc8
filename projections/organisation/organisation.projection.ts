import { sql } from 'slonik';
import { defineProjection } from '../../infrastructure/projections/projection.port.ts';

type Data<T> = { data: T };

/** Companies, units, community groups and professions, as lists and lookups read them. */
export const organisationProjection = defineProjection({
  name: 'organisation',
  version: 1,
  tables: ['companies', 'units', 'community_groups', 'community_group_units', 'professions'],
  setup: (table) => [
    sql.unsafe`create table ${table('companies')} (id integer primary key, name text not null, address text not null, city text, zip text, created_at timestamptz not null)`,
    sql.unsafe`create table ${table('units')} (id integer primary key, company_id integer not null, name text not null, created_at timestamptz not null)`,
    sql.unsafe`create index on ${table('units')} (company_id)`,
    sql.unsafe`create table ${table('community_groups')} (id integer primary key, name text not null, created_at timestamptz not null)`,
    sql.unsafe`create table ${table('community_group_units')} (group_id integer not null, unit_id integer not null, primary key (group_id, unit_id))`,
    sql.unsafe`create table ${table('professions')} (id integer primary key, name text not null, needs_licence_number boolean not null)`,
  ],
  handlers: {
    CompanyCreated: async ({ tx, table }, event) => {
      const d = (event as Data<{ companyId: number; name: string; address: string; city: string | null; zip: string | null }>).data;
      await tx.query(sql.unsafe`
        insert into ${table('companies')} (id, name, address, city, zip, created_at) values (${d.companyId}, ${d.name}, ${d.address}, ${d.city}, ${d.zip}, ${event.createdAt.toISOString()})
        on conflict (id) do update set name = excluded.name, address = excluded.address, city = excluded.city, zip = excluded.zip`);
    },
    UnitCreated: async ({ tx, table }, event) => {
      const d = (event as Data<{ unitId: number; companyId: number; name: string }>).data;
      await tx.query(sql.unsafe`
        insert into ${table('units')} (id, company_id, name, created_at) values (${d.unitId}, ${d.companyId}, ${d.name}, ${event.createdAt.toISOString()})
        on conflict (id) do update set company_id = excluded.company_id, name = excluded.name`);
    },
    CommunityGroupCreated: async ({ tx, table }, event) => {
      const d = (event as Data<{ groupId: number; name: string; unitIds: number[] }>).data;
      await tx.query(sql.unsafe`
        insert into ${table('community_groups')} (id, name, created_at) values (${d.groupId}, ${d.name}, ${event.createdAt.toISOString()})
        on conflict (id) do update set name = excluded.name`);
      await tx.query(sql.unsafe`
        insert into ${table('community_group_units')} (group_id, unit_id)
        select ${d.groupId}, unnest(${sql.array(d.unitIds, 'int4')}) on conflict do nothing`);
    },
    ProfessionCreated: async ({ tx, table }, event) => {
      const d = (event as Data<{ professionId: number; name: string; needsLicenceNumber: boolean }>).data;
      await tx.query(sql.unsafe`
        insert into ${table('professions')} (id, name, needs_licence_number) values (${d.professionId}, ${d.name}, ${d.needsLicenceNumber})
        on conflict (id) do update set name = excluded.name, needs_licence_number = excluded.needs_licence_number`);
    },
  },
});
