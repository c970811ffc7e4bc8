import type { ReactNode } from 'react';
import { meQuery } from '../../features/users/api/me.ts';
import { BindEmailPage } from '../../features/users/components/bind-email-page.tsx';
import { EmailChangeCompletePage } from '../../features/users/components/email-change-complete-page.tsx';
import { EmailChangePage } from '../../features/users/components/email-change-page.tsx';
import { PasswordResetPage } from '../../features/users/components/password-reset-page.tsx';
import { PasswordSetPage } from '../../features/users/components/password-set-page.tsx';
import { ProfilePage } from '../../features/users/components/profile-page.tsx';
import { RegistrationCompletePage } from '../../features/users/components/registration-complete-page.tsx';
import { RegistrationPage } from '../../features/users/components/registration-page.tsx';
import { SecondFactorPage } from '../../features/users/components/second-factor-page.tsx';
import { queryClient } from '../query-client.ts';

/** A new session (or a changed account): what was cached belonged to whoever was here before. */
const signedIn = async () => {
  queryClient.clear();
  await queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
};

/** The signed-in user changed: read them again so the guard and the header see it. */
const reloadMe = () => queryClient.fetchQuery({ ...meQuery, staleTime: 0 });

/** The identity pages of issue 13 by route path: one lazily loaded chunk. */
const PAGES: Record<string, () => ReactNode> = {
  '/prijava/2fa': () => <SecondFactorPage onSignedIn={signedIn} />,
  '/registracija': () => <RegistrationPage onSignedIn={signedIn} />,
  '/registracija/complete': () => <RegistrationCompletePage onSignedIn={signedIn} />,
  '/registracija/bind-email': () => <BindEmailPage />,
  '/geslo': () => <PasswordResetPage />,
  '/geslo/complete': () => <PasswordSetPage mode="reset" onSignedIn={signedIn} />,
  '/nov-uporabnik': () => <PasswordSetPage mode="new-user" onSignedIn={signedIn} />,
  '/sprememba-e-naslova': () => <EmailChangePage />,
  '/sprememba-e-naslova/complete': () => <EmailChangeCompletePage onChanged={reloadMe} />,
  '/profil': () => <ProfilePage reloadMe={reloadMe} />,
};

export const IDENTITY_PATHS = new Set(Object.keys(PAGES));

export const IdentityPage = ({ path }: { path: string }) => <>{PAGES[path]?.() ?? null}</>;
