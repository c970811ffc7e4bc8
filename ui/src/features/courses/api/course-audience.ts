import { api } from '../../../lib/api-client.ts';

/** A course's audience as the course rule holds it (spec §3, decision 0011). */
export type Audience = { byProfession: boolean; professionIds: number[]; unitIds: number[]; companyIds: number[]; groupIds: number[] };
export type Option = { value: string; label: string };

/** `type`: the course's type; an RX course counts only the prescribing professions it names (decision 0062). */
export const countAudience = (isPublic: boolean, audience: Audience, type?: number) =>
  api<{ count: number }>('POST', '/courses/audience-count', { body: { public: isPublic, audience, ...(type === undefined ? {} : { type }) } }).then(
    (r) => r.count,
  );

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
