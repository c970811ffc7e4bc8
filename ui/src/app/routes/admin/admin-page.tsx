import type { RouteEntry } from '../../route-paths.ts';
import { PlaceholderPage } from '../placeholder-page.tsx';

/**
 * Admin pages load as their own chunk, so a participant's first load carries no admin code. The
 * admin issues replace these placeholders with their pages, imported here by path.
 */
export const AdminPage = ({ entry }: { entry: RouteEntry }) => <PlaceholderPage entry={entry} />;
