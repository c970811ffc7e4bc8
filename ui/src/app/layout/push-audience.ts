import { readsCourses } from '../../features/users/roles.ts';

/**
 * Whether the person has anything pushed to them: push carries course notifications (decision 0024)
 * to a course's audience, and an auditor reads no courses (decision 0016), so is never asked (issue 33
 * item 6). Here, where the shell meets both features, because UI features do not import each other.
 */
export const receivesPush = (user: { readonly roles: readonly { readonly id: number }[] }) => readsCourses(user);
