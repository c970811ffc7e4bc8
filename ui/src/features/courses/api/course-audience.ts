import { api } from '../../../lib/api-client.ts';

/** A course's audience as the course rule holds it (spec §3, decision 0011). */
export type Audience = { byProfession: boolean; professionIds: number[]; unitIds: number[]; companyIds: number[]; groupIds: number[] };
export type Option = { value: string; label: string };

export const countAudience = (isPublic: boolean, audience: Audience) =>
  api<{ count: number }>('POST', '/courses/audience-count', { body: { public: isPublic, audience } }).then((r) => r.count);

export type CourseParticipant = {
  userId: number;
  name: string;
  status: string;
  startedAt: string;
  completedAt: string | null;
  blocksDone: number;
  blocksCount: number;
};
export const listCourseParticipants = (courseId: number) =>
  api<{ items: CourseParticipant[] }>('GET', `/courses/${courseId}/participants`).then((r) => r.items);

const named = (items: { id: number; name: string }[]) => items.map((i) => ({ value: String(i.id), label: i.name }));
const firstHundred = { pageSize: 100, sort: 'name', order: 'asc' };

type Named = { items: { id: number; name: string; company_name?: string | null }[] };
/** A list the caller may not read (a client reads no community groups) offers nothing rather than failing the page. */
const orNone = (list: Promise<Named>) => list.catch((): Named => ({ items: [] }));

/** What a course can target, as choices: every unit (with its company), and the first hundred companies, groups and professions the caller may read. */
export const audienceOptions = async () => {
  const [units, companies, groups, professions] = await Promise.all([
    orNone(api<Named>('GET', '/units', { query: { limit: 'NO_LIMIT' } })),
    orNone(api<Named>('GET', '/companies', { query: firstHundred })),
    orNone(api<Named>('GET', '/community-groups', { query: firstHundred })),
    orNone(api<Named>('GET', '/professions', { query: firstHundred })),
  ]);
  return {
    units: units.items.map((u) => ({ value: String(u.id), label: u.company_name ? `${u.name} (${u.company_name})` : u.name })),
    companies: named(companies.items),
    groups: named(groups.items),
    professions: named(professions.items),
  };
};
