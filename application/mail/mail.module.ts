import type { Outbox } from '../../infrastructure/mail/mailer.port.ts';
import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import { mailProjection } from '../../projections/mail/mail.projection.ts';
import type { MailReadDb } from '../../projections/mail/mail.queries.ts';
import { registerMailRoutes } from './mail.routes.ts';

type MailNeeds = { readonly db: MailReadDb; readonly outbox: Outbox; readonly settings: { readonly smtpUrl: string | undefined } };

/** The mail log, and the outbox an admin reads while no SMTP server is configured (decision 0017). */
export const mailModule: FeatureModule<MailNeeds> = {
  name: 'mail',
  projections: [mailProjection],
  wire: (needs) => ({ routes: (app) => registerMailRoutes(app, { outbox: needs.outbox, db: needs.db, smtp: Boolean(needs.settings.smtpUrl) }) }),
};
