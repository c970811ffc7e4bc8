// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setupI18n } from '../../../lib/i18n.ts';
import type { CurrentUser } from '../api/me.ts';
import { PROFILE_DEFAULTS } from '../current-user.fixture.ts';
import { SocialAccounts } from './social-accounts.tsx';

const user = { ...PROFILE_DEFAULTS, id: 1, socialIdentities: [] } as unknown as CurrentUser;

const renderWith = (providers: { platform: 'google' | 'facebook'; available: boolean }[]) => {
  const queryClient = new QueryClient();
  // GET /api/auth/social as the server answers it.
  queryClient.setQueryData(['auth', 'social'], { providers });
  const router = createMemoryRouter([{ path: '*', element: <SocialAccounts user={user} onChanged={async () => undefined} /> }]);
  return render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider>
        <RouterProvider router={router} />
      </MantineProvider>
    </QueryClientProvider>,
  );
};

beforeAll(() => {
  setupI18n();
});
afterEach(cleanup);

describe('the profile’s linked accounts (issue 33 item 8)', () => {
  it('says why Poveži is disabled: the provider is not set up on this platform; an available one says nothing and is enabled', () => {
    renderWith([
      { platform: 'google', available: false },
      { platform: 'facebook', available: true },
    ]);
    const [google, facebook] = screen.getAllByRole('button', { name: 'Poveži' });
    expect(google?.hasAttribute('disabled')).toBe(true);
    const reason = screen.getByTestId('social-google-reason');
    expect(reason.textContent).toBe('Povezava ni mogoča: prijava prek ponudnika Google na tej platformi ni nastavljena.');
    expect(google?.getAttribute('aria-describedby')).toBe(reason.id);
    expect(facebook?.hasAttribute('disabled')).toBe(false);
    expect(facebook?.getAttribute('aria-describedby')).toBeNull();
    expect(screen.queryByTestId('social-facebook-reason')).toBeNull();
  });
});
