import { IMPORT_MESSAGES } from '../../domain/imports/user-import.rules.ts';
import type { RowResult } from '../../domain/imports/user-import.ts';
import type { CheckedRow, ImportUserFields } from '../../domain/imports/user-import-precheck.ts';
import type { RoleAssignment } from '../../domain/permissions/can.ts';
import { fold } from '../../domain/shared/decider.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { ClaimEvent } from '../../domain/shared/unique-claim.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { type ActiveUser, type UserEvent, userStream } from '../../domain/users/user.ts';
import type { AdminUserFields } from '../../domain/users/user-admin.rules.ts';
import { emailClaim, usernameClaim } from '../../domain/users/user-claims.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { ImportDeps } from './imports.deps.ts';

/** What ties a write to the row that made it: the row's user, claims and welcome carry it in their metadata. */
export const rowCause = (importId: number, row: number) => `import-${importId}:row-${row}`;

const TAKEN = new Set(['422013', '422005']);

type Claim = { readonly ownerId: number; readonly cause: string | undefined } | null;

/** Who holds a username or e-mail claim, and which write made the claim. */
const claimOf = async (deps: Pick<ImportDeps, 'store'>, streamName: string): Promise<Claim> => {
  const { events } = await deps.store.readStream(streamName);
  const state = fold(
    usernameClaim.decider,
    events.map((e) => ({ type: e.type, data: e.data }) as ClaimEvent),
  );
  if (state.status !== 'claimed') return null;
  const claimed = events.findLast((e) => e.type === 'UniqueValueClaimed');
  return { ownerId: state.ownerId, cause: claimed?.metadata.causationId };
};

const sameRole = (a: RoleAssignment, b: RoleAssignment) => a.roleId === b.roleId && a.unitId === b.unitId && a.companyId === b.companyId;

/** The admin form's fields for a new user of the row. */
const newUserFields = (fields: ImportUserFields): AdminUserFields => ({
  username: fields.username,
  email: fields.email,
  firstName: fields.firstName,
  middleName: fields.middleName,
  lastName: fields.lastName,
  phone: fields.phone,
  professionId: fields.professionId,
  otherJob: fields.otherJob,
  licenceNumber: fields.licenceNumber,
  chamberMembershipNumber: fields.chamberMembershipNumber,
  secondaryEmail: null,
  notes: null,
  roles: [fields.role],
});

/**
 * An existing user as the row would leave them: the row's names and phone, its optional values
 * where it has them (an empty cell keeps what the user has), and its role added to theirs. Null
 * when that changes nothing.
 */
const mergedFields = (user: ActiveUser, fields: ImportUserFields): AdminUserFields | null => {
  const profile = {
    firstName: fields.firstName,
    middleName: fields.middleName ?? user.profile.middleName,
    lastName: fields.lastName,
    phone: fields.phone,
    professionId: fields.professionId ?? user.profile.professionId,
    otherJob: fields.otherJob ?? user.profile.otherJob,
    licenceNumber: fields.licenceNumber ?? user.profile.licenceNumber,
    chamberMembershipNumber: fields.chamberMembershipNumber ?? user.profile.chamberMembershipNumber,
  };
  const hasRole = user.roles.some((role) => sameRole(role, fields.role));
  const unchanged = hasRole && (Object.keys(profile) as (keyof typeof profile)[]).every((key) => profile[key] === user.profile[key]);
  if (unchanged) return null;
  return {
    username: user.username,
    email: user.email,
    ...profile,
    secondaryEmail: user.secondaryEmail,
    notes: user.notes,
    roles: hasRole ? [...user.roles] : [...user.roles, fields.role],
  };
};

type RowInput = {
  readonly importId: number;
  readonly row: CheckedRow;
  readonly sendWelcome: boolean;
  readonly metadata: EventMetadata;
  /** The read model knows the username or e-mail already: compare before trying to create. */
  readonly exists: boolean;
};

/**
 * One row, idempotently: done again (a job run again after it died half way), it creates nobody
 * twice and loses nobody.
 * - New username and e-mail: the user is created through the admin's user creation (its claims
 *   decide uniqueness) with the welcome mail when asked for.
 * - Both already one user's: a user this very row created in an earlier run is reported created (the
 *   welcome mail is sent if that run died before it); anyone else is updated to the row, or skipped
 *   when the row changes nothing.
 * - Claims this row made in a run that died before the user's stream was written are released and
 *   the user created again.
 * - Either one someone else's: spec §8 "user exists".
 */
export const importRow = async (deps: ImportDeps, input: RowInput): Promise<RowResult> => {
  const { row } = input;
  const fields = row.fields;
  if (!fields) return { row: row.row, outcome: 'failed', userId: null, message: [...new Set(row.problems.map((p) => p.message))].join(' ') };
  const cause = rowCause(input.importId, row.row);
  const metadata: EventMetadata = { ...input.metadata, causationId: cause };
  const failed = (message: string): RowResult => ({ row: row.row, outcome: 'failed', userId: null, message });

  const create = async (): Promise<RowResult | null> => {
    try {
      const created = await deps.users.create({ ...newUserFields(fields), sendWelcome: input.sendWelcome }, metadata);
      return { row: row.row, outcome: 'created', userId: created.id, message: null };
    } catch (error) {
      if (error instanceof DomainError && TAKEN.has(error.code)) return null;
      throw error;
    }
  };

  const compare = async (released: boolean): Promise<RowResult> => {
    const [username, email] = await Promise.all([claimOf(deps, usernameClaim.stream(fields.username)), claimOf(deps, emailClaim.stream(fields.email))]);
    // A claim of this row whose user was never written: the run died between the claim and the user.
    const orphans: { kind: 'username' | 'email'; ownerId: number }[] = [];
    for (const [kind, claim] of [
      ['username', username],
      ['email', email],
    ] as const) {
      if (claim && claim.cause === cause && (await deps.store.readStream(userStream(claim.ownerId))).revision === 'no_stream') {
        orphans.push({ kind, ownerId: claim.ownerId });
      }
    }
    if (orphans.length > 0 && !released) {
      for (const orphan of orphans) {
        const claim = orphan.kind === 'username' ? usernameClaim : emailClaim;
        const value = orphan.kind === 'username' ? fields.username : fields.email;
        await handleCommand(deps.store, {
          streamName: claim.stream(value),
          decider: claim.decider,
          command: { type: 'Release', ownerId: orphan.ownerId },
          metadata,
        });
      }
      return (await create()) ?? (await compare(true));
    }
    if (!username || !email || username.ownerId !== email.ownerId) {
      return failed(username && (!email || username.ownerId !== email.ownerId) ? IMPORT_MESSAGES.usernameExists : IMPORT_MESSAGES.emailExists);
    }
    const { events } = await deps.store.readStream(userStream(username.ownerId));
    const user = fold(
      userDecider,
      events.map((e) => ({ type: e.type, data: e.data }) as UserEvent),
    );
    // Claimed by someone else's registration still being written.
    if (user.status !== 'active') return failed(IMPORT_MESSAGES.usernameExists);
    if (events[0]?.metadata.causationId === cause) {
      const welcomed = events.some((e) => e.type === 'UserPasswordResetRequested' && (e.data as { purpose?: string }).purpose === 'setup');
      if (input.sendWelcome && !welcomed && user.lifecycle === 'active') await deps.users.sendWelcome(user.id, metadata);
      return { row: row.row, outcome: 'created', userId: user.id, message: null };
    }
    if (user.lifecycle !== 'active' || user.erased) return failed(IMPORT_MESSAGES.existsInactive);
    const merged = mergedFields(user, fields);
    if (merged === null) return { row: row.row, outcome: 'skipped', userId: user.id, message: null };
    await deps.users.update(user.id, merged, metadata);
    return { row: row.row, outcome: 'updated', userId: user.id, message: null };
  };

  try {
    if (!input.exists) {
      const created = await create();
      if (created) return created;
    }
    return await compare(false);
  } catch (error) {
    // A row the platform refuses (a unit deleted since the precheck, a claim taken meanwhile): that row fails, the rest go on.
    if (error instanceof DomainError && error.status < 500) return failed(error.message);
    throw error;
  }
};
