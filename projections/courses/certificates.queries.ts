import { sql } from 'slonik';
import { z } from 'zod';
import { type CertificateIssuer, certificateIssuer } from '../../domain/courses/certificate.ts';
import type { CourseReadDb } from './courses.queries.ts';

/**
 * The participant's unit and company now (issue 18 item 3, decision 0032), as a jsonb object or
 * null: of their roles, first one whose unit or company signs certificates (the unit's own
 * signature before the company's), then the highest role.
 */
const membershipNow = (userId: ReturnType<typeof sql.fragment>) => sql.fragment`
  (select jsonb_build_object('companyId', co.id, 'companyName', co.name, 'unitId', un.id, 'unitName', un.name)
     from rm.user_roles r
     left join rm.units un on un.id = r.unit_id
     join rm.companies co on co.id = coalesce(r.company_id, un.company_id)
    where r.user_id = ${userId}
    order by (coalesce(un.signature, co.signature) is null), (un.signature is null), r.role_id desc, un.id nulls last, co.id
    limit 1)`;

/** Where `userId` belongs now: recorded in CertificateIssued, so the certificate keeps its issuer. */
export const currentIssuer = async (db: CourseReadDb, userId: number): Promise<CertificateIssuer | null> =>
  (await db.oneFirst(sql.type(z.object({ issuer: certificateIssuer.nullable() }))`select ${membershipNow(sql.fragment`${userId}`)} as issuer`)) ?? null;

const signature = z.object({ name: z.string(), role: z.string(), imageFileId: z.number().nullable().default(null) });

const certificateRow = z.object({
  certificateId: z.string(),
  number: z.string(),
  participantName: z.string(),
  courseTitle: z.string(),
  /** spec §3 course type: an RX course's certificate carries the RX label (issue 36). */
  courseType: z.number(),
  creditPoints: z.number(),
  completedAt: z.string(),
  syncDestination: z.number().nullable(),
  /** The code the course was last published under (issue 36, decision 0063); null: published without one. */
  approvalCode: z.string().nullable(),
  /** The unit when it has a signature of its own, else the company; null: the participant belonged nowhere. */
  issuer: z.object({ name: z.string(), signature: signature.nullable().default(null) }).nullable(),
});

export type CertificateRow = z.infer<typeof certificateRow>;

const certificateSelect = sql.fragment`
  select e.certificate_id::text as "certificateId", e.certificate_number as number,
         concat_ws(' ', u.first_name, u.middle_name, u.last_name) as "participantName",
         c.title as "courseTitle", c.type as "courseType", coalesce(e.credit_points, c.credit_points) as "creditPoints", coalesce(e.completed_at, e.certificate_issued_at) as "completedAt",
         case when c.fields->>'syncDestination' in ('1', '2', '3') then (c.fields->>'syncDestination')::int end as "syncDestination",
         (select ca.published_code from rm.course_approvals ca where ca.course_id = c.id) as "approvalCode",
         case when m.issuer is null then null
              when un.signature is not null then jsonb_build_object('name', un.name, 'signature', un.signature)
              else jsonb_build_object('name', coalesce(co.name, m.issuer->>'companyName'), 'signature', co.signature) end as issuer
    from rm.enrollments e
    join rm.courses c on c.id = e.course_id
    join rm.users u on u.id = e.user_id
    cross join lateral (select coalesce(e.certificate_issuer, ${membershipNow(sql.fragment`e.user_id`)}) as issuer) m
    left join rm.units un on un.id = (m.issuer->>'unitId')::int
    left join rm.companies co on co.id = (m.issuer->>'companyId')::int`;

/** What the participant's certificate of a course shows; null until it was issued. */
export const certificateData = async (db: CourseReadDb, userId: number, courseId: number) =>
  db.maybeOne(sql.type(certificateRow)`${certificateSelect}
   where e.course_id = ${courseId} and e.user_id = ${userId} and e.certificate_number is not null`);

/**
 * The certificate with this number, for the public verification (GET /api/certificates/:number).
 * Numbers are unique in practice (50 random bits a year, a new one drawn again if taken; decision
 * 0032); were two ever the same, the one issued first answers, always the same one.
 */
export const certificateByNumber = async (db: CourseReadDb, number: string) =>
  db.maybeOne(sql.type(certificateRow)`${certificateSelect}
   where e.certificate_number = ${number}
   order by e.certificate_issued_at, e.certificate_id limit 1`);

/** Whether a certificate with this number exists already (a new one draws another UUID then). */
export const certificateNumberTaken = async (db: CourseReadDb, number: string) =>
  db.exists(sql.unsafe`select 1 from rm.enrollments where certificate_number = ${number}`);
