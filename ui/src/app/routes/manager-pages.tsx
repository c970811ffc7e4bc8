import { ManagerUsersPage } from '../../features/users/components/manager-users-page.tsx';
import type { RouteEntry } from '../route-paths.ts';
import { PlaceholderPage } from './placeholder-page.tsx';

/** The manager's pages (spec §2 /manager/users): their own chunk, loaded only by managers and directors. */
export const ManagerPage = ({ entry }: { entry: RouteEntry }) => (entry.path === '/manager/users' ? <ManagerUsersPage /> : <PlaceholderPage entry={entry} />);
