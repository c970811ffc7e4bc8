import { holdsSystemRole } from '../../domain/users/user.decide.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import type { Spreadsheet } from '../../infrastructure/reports/spreadsheet.port.ts';
import type { AuthDeps } from './auth.deps.ts';
import { issueLoginToken } from './login-tokens.ts';
import { loadUser } from './user-state.ts';

/** At most this many links in one file: a company's staff, not the whole platform at once. */
export const LOGIN_TOKEN_EXPORT_MAX = 2000;

const when = new Intl.DateTimeFormat('sl-SI', { timeZone: 'Europe/Ljubljana', dateStyle: 'medium', timeStyle: 'short' });

/**
 * The login-token export (1066, issue 14 item 5): one-time login links for chosen users as an xlsx
 * file. Each link is `<public url>/?token=<token>` (spec §2: a token query signs in once, through
 * POST /auth/token); each issuing is an event in the user's stream, each use another. Users who
 * cannot sign in (inactive, deleted) and staff accounts (admin, editor, auditor) get no link and are
 * listed as skipped.
 */
export const exportLoginTokens = async (
  deps: AuthDeps & { spreadsheet: Spreadsheet; publicUrl: string },
  userIds: readonly number[],
  metadata: EventMetadata,
) => {
  const rows: (string | number)[][] = [];
  let issued = 0;
  let position = null;
  for (const userId of new Set(userIds)) {
    const user = await loadUser(deps.store, userId);
    if (user.status !== 'active') continue;
    const name = [user.profile.firstName, user.profile.middleName, user.profile.lastName].filter(Boolean).join(' ');
    if (user.lifecycle !== 'active') {
      rows.push([userId, name, user.username, user.email, '', '', 'Račun ni aktiven: povezave ni.']);
      continue;
    }
    if (holdsSystemRole(user)) {
      rows.push([userId, name, user.username, user.email, '', '', 'Račun skrbnika, urednika ali revizorja: povezave ni.']);
      continue;
    }
    const result = await issueLoginToken(deps, userId, metadata);
    position = result.position ?? position;
    issued += 1;
    rows.push([userId, name, user.username, user.email, `${deps.publicUrl}/?token=${encodeURIComponent(result.token)}`, when.format(result.expiresAt), '']);
  }
  const file = await deps.spreadsheet.table({
    sheet: 'Povezave za prijavo',
    header: ['ID', 'Ime in priimek', 'Uporabniško ime', 'E-naslov', 'Povezava za prijavo (enkratna)', 'Velja do', 'Opomba'],
    rows,
    widths: [8, 28, 20, 30, 90, 22, 30],
  });
  return { file, issued, position };
};
