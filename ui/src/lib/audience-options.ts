import { api } from './api-client.ts';

type Named = { items: { id: number; name: string; company_name?: string | null }[] };
const named = (items: Named['items']) => items.map((i) => ({ value: String(i.id), label: i.name }));
const firstHundred = { pageSize: 100, sort: 'name', order: 'asc' };
/** A list the caller may not read (a client reads no community groups) offers nothing rather than failing the page. */
const orNone = (list: Promise<Named>) => list.catch((): Named => ({ items: [] }));

/**
 * Who something can be for, as choices (a course's audience, a news item's recipients): every unit
 * (with its company), and the first hundred companies, community groups and professions the caller may read.
 */
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
