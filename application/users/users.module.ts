import type { SocialPlatform } from '../../domain/users/user.ts';
import type { SocialProvider } from '../../infrastructure/auth/social-provider.port.ts';
import type { AllPosition } from '../../infrastructure/event-store/event-store.port.ts';
import type { Log } from '../../infrastructure/logging/log.port.ts';
import type { Mailer } from '../../infrastructure/mail/mailer.port.ts';
import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import type { PersonalKeys } from '../../infrastructure/personal-data/personal-keys.port.ts';
import type { ReadModels } from '../../infrastructure/projections/projection.port.ts';
import type { DocumentRenderer } from '../../infrastructure/reports/document.port.ts';
import type { Spreadsheet } from '../../infrastructure/reports/spreadsheet.port.ts';
import { createAuthSubjectCache } from '../../projections/users/auth-subject-cache.ts';
import { registerUserAdminReadRoutes } from '../../projections/users/user-admin.routes.ts';
import { usersProjection } from '../../projections/users/users.projection.ts';
import { findAuthSubject, type UsersDb } from '../../projections/users/users.queries.ts';
import { registerUsersReadRoutes } from '../../projections/users/users.routes.ts';
import type { AuthDeps } from './auth.deps.ts';
import { registerAuthRoutes } from './auth.routes.ts';
import type { ErasureDeps } from './erase-personal-data.ts';
import { registerIdentityRoutes } from './identity.routes.ts';
import { sendIdentityMail } from './identity-mail.job.ts';
import { IDENTITY_MAIL_QUEUE, identityMailReactor } from './identity-mail.reactor.ts';
import { registerPersonalDataRoutes } from './personal-data.routes.ts';
import { registerProfileRoutes } from './profile.routes.ts';
import { registerSocialRoutes } from './social.routes.ts';
import { registerUserAdminRoutes } from './user-admin.routes.ts';
import { createUserByAdmin, sendWelcome, updateUserByAdmin } from './user-admin.ts';

/** The read models the acting user of a request (roles, consents, session ended) is read from. */
export const SUBJECT_READ_MODELS = ['users', 'consents'] as const;

type AccountNeeds = Omit<AuthDeps, 'catchUpOrganisation'> & { readonly readModels: ReadModels };

/** The signed checkpoint's word on a person's consents (the consents feature's gate, decision 0052). */
type ConsentGate = {
  missingFromReadModel(
    userId: number,
    read: { readonly missing: readonly number[]; readonly length: number; readonly headHash: string | null },
  ): Promise<readonly number[]>;
  missingFromLog(userId: number): Promise<readonly number[]>;
};

type UsersNeeds = AccountNeeds & {
  readonly pg: UsersDb;
  readonly log: Log;
  readonly mailer: Mailer;
  readonly spreadsheet: Spreadsheet;
  readonly personalKeys: PersonalKeys;
  readonly renderers: { readonly documents: DocumentRenderer };
  readonly socialProviders: Partial<Record<SocialPlatform, SocialProvider>>;
  /** What the erasure removes outside the event log: the outbox's mail, the chambers' files, the rewritten tables. */
  readonly erasure: Pick<ErasureDeps, 'forgetMail' | 'forgetChamberFiles' | 'compact'>;
  readonly settings: { readonly publicUrl: string };
};

/** The account slices' dependencies: a unit or company named a moment after its write waits for the organisation read model. */
const authDeps = (needs: AccountNeeds): AuthDeps => ({ ...needs, catchUpOrganisation: () => needs.readModels.catchUp(['organisation']) });

/** How another feature (imports) makes and changes users: through this feature's own slices. */
export const userAccounts = (needs: AccountNeeds) => {
  const auth = authDeps(needs);
  return {
    create: (fields: Parameters<typeof createUserByAdmin>[1], metadata: Parameters<typeof createUserByAdmin>[2]) =>
      createUserByAdmin(auth, fields, metadata, { origin: 'import' }),
    update: (userId: number, fields: Parameters<typeof updateUserByAdmin>[2], metadata: Parameters<typeof updateUserByAdmin>[3]) =>
      updateUserByAdmin(auth, userId, fields, metadata),
    sendWelcome: (userId: number, metadata: Parameters<typeof sendWelcome>[2]) => sendWelcome(auth, userId, metadata),
  };
};

/**
 * The acting user of a request, kept per session while the users and consents read models stand still
 * (decision 0039), and gated by the consents' signed checkpoint, which fails closed (decision 0052).
 */
export const requestSubjects = (needs: {
  readonly pg: UsersDb;
  readonly changeStamp: (names: readonly string[]) => string | null;
  readonly consentGate: ConsentGate;
}) => {
  const subjects = createAuthSubjectCache({
    stamp: () => needs.changeStamp(SUBJECT_READ_MODELS),
    load: (userId, sessionId) => findAuthSubject(needs.pg, userId, sessionId),
  });
  return {
    loadSubject: async (claims: { readonly userId: number; readonly sessionId: string }) => {
      const found = await subjects(claims.userId, claims.sessionId);
      if (!found) return found;
      const missing = await needs.consentGate.missingFromReadModel(claims.userId, { missing: found.missingConsents, ...found.consentStream });
      return missing === found.missingConsents ? found : { ...found, missingConsents: missing };
    },
    // The read model may not have a consent given a moment ago: before refusing (422086), the events decide.
    confirmMissingConsents: (userId: number) => needs.consentGate.missingFromLog(userId),
    subjectReadModels: SUBJECT_READ_MODELS,
  };
};

/** Accounts, sign-in (password, social), profiles, user administration and personal data. */
export const usersModule: FeatureModule<UsersNeeds> = {
  name: 'users',
  projections: [usersProjection],
  reactors: (jobs) => [identityMailReactor(jobs)],
  wire: (needs) => {
    const auth = authDeps(needs);
    const { readModels, settings } = needs;
    return {
      routes: (app) => {
        registerAuthRoutes(app, auth);
        registerIdentityRoutes(app, auth);
        registerSocialRoutes(app, {
          ...auth,
          providers: needs.socialProviders,
          publicUrl: settings.publicUrl,
          // A browser redirect carries no X-Event-Position: the next page waits for the users read model here.
          settle: async (position: AllPosition | null) => {
            if (position) await readModels.waitFor(['users'], position, readModels.waitMs);
          },
        });
        registerUsersReadRoutes(app, { db: needs.pg });
        registerUserAdminReadRoutes(app, { db: needs.db });
        registerUserAdminRoutes(app, { ...auth, spreadsheet: needs.spreadsheet, publicUrl: settings.publicUrl });
        registerPersonalDataRoutes(app, {
          ...needs.erasure,
          store: needs.store,
          db: needs.db,
          documents: needs.renderers.documents,
          now: needs.now,
          keys: needs.personalKeys,
        });
        registerProfileRoutes(app, { store: needs.store, db: needs.db, passwords: needs.passwords, attempts: needs.attempts });
      },
      jobs: () => [
        {
          queue: IDENTITY_MAIL_QUEUE,
          handler: sendIdentityMail({
            store: needs.store,
            mailer: needs.mailer,
            log: needs.log,
            sealer: needs.sealer,
            publicUrl: settings.publicUrl,
            now: needs.now,
          }),
          options: { retryLimit: 5, retryDelaySeconds: 5 },
        },
      ],
    };
  },
};
