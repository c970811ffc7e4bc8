import { api } from '../../../lib/api-client.ts';
import type { UserCourse } from './courses.ts';

/** An academy (powerclass) as a participant sees it: the courses they may take and their progress. */
export type UserAcademy = {
  id: number;
  title: string;
  description: string;
  cover: string;
  courses: UserCourse[];
  coursesTotal: number;
  coursesCompleted: number;
  creditPoints: number;
  creditPointsEarned: number;
};

export const listUserAcademies = () => api<{ items: UserAcademy[] }>('GET', '/user-academies');
/** spec §7 GET /user-academies/{id}: a failure is a server error, shown on the page. */
export const getUserAcademy = (id: number) => api<UserAcademy>('GET', `/user-academies/${id}`);
