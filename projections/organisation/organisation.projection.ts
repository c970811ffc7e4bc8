import { sql } from 'slonik';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import { defineProjection, type ProjectionContext } from '../../infrastructure/projections/projection.port.ts';

type Data<T> = { data: T };
const idOf = (event: RecordedEvent) => Number(event.streamName.slice(event.streamName.indexOf('-') + 1));
const at = (event: RecordedEvent) => event.createdAt.toISOString();

type CompanyData = {
  name: string;
  address: string;
  city: string | null;
  zip: string | null;
  region: string | null;
  tagId: number | null;
  vat: string | null;
  parentCompanyId: number | null;
  externalId: string | null;
  syncDestination: number | null;
  financial: { iban: string | null; swift: string | null; billingEmail: string | null };
};

const upsertCompany = async ({ tx, table }: ProjectionContext, id: number, d: CompanyData, event: RecordedEvent) => {
  await tx.query(sql.unsafe`
    insert into ${table('companies')} (id, name, address, city, zip, region, tag_id, vat, parent_company_id, external_id, sync_destination, financial, created_at, updated_at)
    values (${id}, ${d.name}, ${d.address}, ${d.city}, ${d.zip}, ${d.region}, ${d.tagId}, ${d.vat}, ${d.parentCompanyId}, ${d.externalId}, ${d.syncDestination},
            ${sql.jsonb(d.financial)}, ${at(event)}, ${at(event)})
    on conflict (id) do update set name = excluded.name, address = excluded.address, city = excluded.city, zip = excluded.zip, region = excluded.region,
      tag_id = excluded.tag_id, vat = excluded.vat, parent_company_id = excluded.parent_company_id, external_id = excluded.external_id,
      sync_destination = excluded.sync_destination, financial = excluded.financial, updated_at = excluded.updated_at`);
};

/**
 * Companies, units (communities), community groups, professions, profession groups and tags, as
 * the lists, forms, lookups and permission scopes read them.
 */
/** A unit's fields as its events carry them (the address fields since issue 14). */
type UnitData = {
  companyId: number;
  name: string;
  tagId: number | null;
  address?: string | null;
  city?: string | null;
  zip?: string | null;
  region?: string | null;
  vat?: string | null;
  externalId?: string | null;
  syncDestination?: number | null;
};

export const organisationProjection = defineProjection({
  name: 'organisation',
  // 3: professions that require a chamber membership number (issue 13).
  // 4: professions can be deleted (issue 14); units have the address and register fields of spec §3.
  // 5: units may have a certificate signature of their own (issue 18 item 3).
  // 6: a profession's chamber for credit points (issue 32 item 4).
  // 7: a profession may prescribe or supply medicines (issue 36, RX courses).
  version: 7,
  tables: ['companies', 'units', 'community_groups', 'community_group_units', 'professions', 'profession_groups', 'tags'],
  setup: (table) => [
    sql.unsafe`create table ${table('companies')} (
      id integer primary key, name text not null, address text not null, city text, zip text, region text, tag_id integer, vat text,
      parent_company_id integer, external_id text, sync_destination smallint, financial jsonb not null default '{}'::jsonb, signature jsonb,
      created_at timestamptz not null, updated_at timestamptz not null)`,
    sql.unsafe`create index on ${table('companies')} (lower(name))`,
    sql.unsafe`create table ${table('units')} (
      id integer primary key, company_id integer not null, name text not null, tag_id integer, published boolean not null default false,
      address text, city text, zip text, region text, vat text, external_id text, sync_destination smallint, signature jsonb,
      created_at timestamptz not null, updated_at timestamptz not null)`,
    sql.unsafe`create index on ${table('units')} (company_id)`,
    sql.unsafe`create index on ${table('units')} (lower(name))`,
    sql.unsafe`create table ${table('community_groups')} (id integer primary key, name text not null, created_at timestamptz not null, updated_at timestamptz not null)`,
    sql.unsafe`create table ${table('community_group_units')} (group_id integer not null, unit_id integer not null, primary key (group_id, unit_id))`,
    sql.unsafe`create index on ${table('community_group_units')} (unit_id)`,
    sql.unsafe`create table ${table('professions')} (id integer primary key, name text not null, group_id integer, needs_licence_number boolean not null,
      needs_chamber_number boolean not null default false, chamber smallint, may_prescribe boolean not null default false)`,
    sql.unsafe`create table ${table('profession_groups')} (id integer primary key, name text not null)`,
    sql.unsafe`create table ${table('tags')} (id integer primary key, kind text not null, name text not null, internal_use boolean not null, deleted boolean not null default false)`,
    sql.unsafe`create index on ${table('tags')} (kind)`,
  ],
  handlers: {
    CompanyCreated: async (context, event) => {
      const { companyId, ...d } = (event as Data<CompanyData & { companyId: number }>).data;
      await upsertCompany(context, companyId, d, event);
    },
    CompanyUpdated: async (context, event) => upsertCompany(context, idOf(event), (event as Data<CompanyData>).data, event),
    CompanySignatureChanged: async ({ tx, table }, event) => {
      await tx.query(
        sql.unsafe`update ${table('companies')} set signature = ${sql.jsonb((event as Data<object>).data as never)}, updated_at = ${at(event)} where id = ${idOf(event)}`,
      );
    },
    UnitCreated: async ({ tx, table }, event) => {
      const d = (event as Data<UnitData & { unitId: number }>).data;
      await tx.query(sql.unsafe`
        insert into ${table('units')} (id, company_id, name, tag_id, address, city, zip, region, vat, external_id, sync_destination, published, created_at, updated_at)
        values (${d.unitId}, ${d.companyId}, ${d.name}, ${d.tagId}, ${d.address ?? null}, ${d.city ?? null}, ${d.zip ?? null}, ${d.region ?? null}, ${d.vat ?? null},
                ${d.externalId ?? null}, ${d.syncDestination ?? null}, false, ${at(event)}, ${at(event)})
        on conflict (id) do update set company_id = excluded.company_id, name = excluded.name, tag_id = excluded.tag_id, address = excluded.address,
          city = excluded.city, zip = excluded.zip, region = excluded.region, vat = excluded.vat, external_id = excluded.external_id,
          sync_destination = excluded.sync_destination`);
    },
    UnitUpdated: async ({ tx, table }, event) => {
      const d = (event as Data<UnitData>).data;
      await tx.query(sql.unsafe`
        update ${table('units')} set company_id = ${d.companyId}, name = ${d.name}, tag_id = ${d.tagId}, address = ${d.address ?? null}, city = ${d.city ?? null},
          zip = ${d.zip ?? null}, region = ${d.region ?? null}, vat = ${d.vat ?? null}, external_id = ${d.externalId ?? null},
          sync_destination = ${d.syncDestination ?? null}, updated_at = ${at(event)}
         where id = ${idOf(event)}`);
    },
    UnitSignatureChanged: async ({ tx, table }, event) => {
      const { signature } = (event as Data<{ signature: object | null }>).data;
      await tx.query(
        sql.unsafe`update ${table('units')} set signature = ${signature ? sql.jsonb(signature as never) : null}, updated_at = ${at(event)} where id = ${idOf(event)}`,
      );
    },
    UnitPublished: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('units')} set published = true, updated_at = ${at(event)} where id = ${idOf(event)}`);
    },
    UnitUnpublished: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('units')} set published = false, updated_at = ${at(event)} where id = ${idOf(event)}`);
    },
    // Deleted units, companies and groups leave the read model; their events stay in the store.
    UnitDeleted: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`delete from ${table('community_group_units')} where unit_id = ${idOf(event)}`);
      await tx.query(sql.unsafe`delete from ${table('units')} where id = ${idOf(event)}`);
    },
    CompanyDeleted: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`delete from ${table('companies')} where id = ${idOf(event)}`);
    },
    CommunityGroupDeleted: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`delete from ${table('community_group_units')} where group_id = ${idOf(event)}`);
      await tx.query(sql.unsafe`delete from ${table('community_groups')} where id = ${idOf(event)}`);
    },
    CommunityGroupCreated: async ({ tx, table }, event) => {
      const d = (event as Data<{ groupId: number; name: string; unitIds: number[] }>).data;
      await tx.query(sql.unsafe`
        insert into ${table('community_groups')} (id, name, created_at, updated_at) values (${d.groupId}, ${d.name}, ${at(event)}, ${at(event)})
        on conflict (id) do update set name = excluded.name`);
      await tx.query(sql.unsafe`delete from ${table('community_group_units')} where group_id = ${d.groupId}`);
      await tx.query(sql.unsafe`
        insert into ${table('community_group_units')} (group_id, unit_id) select ${d.groupId}, unnest(${sql.array(d.unitIds, 'int4')}) on conflict do nothing`);
    },
    CommunityGroupUpdated: async ({ tx, table }, event) => {
      const id = idOf(event);
      const d = (event as Data<{ name: string; unitIds: number[] }>).data;
      await tx.query(sql.unsafe`update ${table('community_groups')} set name = ${d.name}, updated_at = ${at(event)} where id = ${id}`);
      await tx.query(sql.unsafe`delete from ${table('community_group_units')} where group_id = ${id}`);
      await tx.query(sql.unsafe`
        insert into ${table('community_group_units')} (group_id, unit_id) select ${id}, unnest(${sql.array(d.unitIds, 'int4')}) on conflict do nothing`);
    },
    ProfessionCreated: async ({ tx, table }, event) => {
      const d = (
        event as Data<{
          professionId: number;
          name: string;
          groupId: number | null;
          needsLicenceNumber: boolean;
          needsChamberNumber?: boolean;
          chamber?: number | null;
          mayPrescribe?: boolean;
        }>
      ).data;
      await tx.query(sql.unsafe`
        insert into ${table('professions')} (id, name, group_id, needs_licence_number, needs_chamber_number, chamber, may_prescribe)
        values (${d.professionId}, ${d.name}, ${d.groupId}, ${d.needsLicenceNumber}, ${d.needsChamberNumber ?? false}, ${d.chamber ?? null}, ${d.mayPrescribe ?? false})
        on conflict (id) do update set name = excluded.name, group_id = excluded.group_id, needs_licence_number = excluded.needs_licence_number,
          needs_chamber_number = excluded.needs_chamber_number, chamber = excluded.chamber, may_prescribe = excluded.may_prescribe`);
    },
    ProfessionUpdated: async ({ tx, table }, event) => {
      const d = (
        event as Data<{
          name: string;
          groupId: number | null;
          needsLicenceNumber: boolean;
          needsChamberNumber?: boolean;
          chamber?: number | null;
          mayPrescribe?: boolean;
        }>
      ).data;
      await tx.query(sql.unsafe`
        update ${table('professions')} set name = ${d.name}, group_id = ${d.groupId}, needs_licence_number = ${d.needsLicenceNumber},
          needs_chamber_number = ${d.needsChamberNumber ?? false}, chamber = ${d.chamber ?? null}, may_prescribe = ${d.mayPrescribe ?? false}
         where id = ${idOf(event)}`);
    },
    ProfessionDeleted: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`delete from ${table('professions')} where id = ${idOf(event)}`);
    },
    ProfessionGroupCreated: async ({ tx, table }, event) => {
      const d = (event as Data<{ groupId: number; name: string }>).data;
      await tx.query(
        sql.unsafe`insert into ${table('profession_groups')} (id, name) values (${d.groupId}, ${d.name}) on conflict (id) do update set name = excluded.name`,
      );
    },
    ProfessionGroupRenamed: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('profession_groups')} set name = ${(event as Data<{ name: string }>).data.name} where id = ${idOf(event)}`);
    },
    TagCreated: async ({ tx, table }, event) => {
      const d = (event as Data<{ tagId: number; kind: string; name: string; internalUse: boolean }>).data;
      await tx.query(sql.unsafe`
        insert into ${table('tags')} (id, kind, name, internal_use) values (${d.tagId}, ${d.kind}, ${d.name}, ${d.internalUse})
        on conflict (id) do update set name = excluded.name, internal_use = excluded.internal_use`);
    },
    TagUpdated: async ({ tx, table }, event) => {
      const d = (event as Data<{ name: string; internalUse: boolean }>).data;
      await tx.query(sql.unsafe`update ${table('tags')} set name = ${d.name}, internal_use = ${d.internalUse} where id = ${idOf(event)}`);
    },
    TagDeleted: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`update ${table('tags')} set deleted = true where id = ${idOf(event)}`);
    },
  },
});
