// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CurrentUser } from '../../features/users/api/me.ts';
import { PROFILE_DEFAULTS } from '../../features/users/current-user.fixture.ts';
import { setupI18n } from '../../lib/i18n.ts';
import { DesktopMenu } from './main-menu.tsx';
import { mainMenu } from './menu-model.ts';
import { UserMenu } from './user-menu.tsx';

const user = (roles: number[], abilities: number[] = []): CurrentUser => ({
  ...PROFILE_DEFAULTS,
  id: 1,
  username: 'ana',
  email: 'ana@x.si',
  firstName: 'Ana',
  middleName: null,
  lastName: 'Novak',
  fullName: 'Ana Novak',
  phone: null,
  profession: null,
  userRoles: [],
  consents: [],
  missingConsents: [],
  systemAbilities: abilities.map((systemPermission) => ({ systemPermission })),
  roles: roles.map((id) => ({
    id,
    name: String(id),
    unit_id: 3,
    unit_name: 'Lekarna z zelo dolgim imenom v središču mesta',
    company_id: 2,
    company_name: 'Podjetje',
  })),
});

const renderInApp = (element: React.ReactNode, features: Record<string, boolean> = { newsletters: true }) => {
  const router = createMemoryRouter([{ path: '*', element }]);
  // GET /api/features as the server would answer it (the user menu offers the newsletters while they are on).
  const queryClient = new QueryClient();
  queryClient.setQueryData(['features'], features);
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

describe('shell components', () => {
  it('shows an admin the Slovenian menu with its groups', () => {
    const { container } = renderInApp(<DesktopMenu items={mainMenu(user([1], [1065]))} />);
    const labels = [...container.querySelectorAll('[data-menu]')].map((b) => b.textContent);
    expect(labels).toEqual(['Izobraževanja', 'Akademije', 'Urejanje izobraževanj', 'Skupnosti', 'Uporabniki', 'Značke', 'Novice', 'Podatki']);
  });

  it('shows a participant courses and academies only', () => {
    const { container } = renderInApp(<DesktopMenu items={mainMenu(user([10]))} />);
    expect([...container.querySelectorAll('[data-menu]')].map((b) => b.textContent)).toEqual(['Izobraževanja', 'Akademije']);
    expect(screen.getByRole('link', { name: 'Izobraževanja' }).getAttribute('href')).toBe('/izobrazevanja');
  });

  it('opens the user menu on the avatar, with name, location cut at 32 characters, profile, completed courses, newsletters and logout; closes on an outside click', async () => {
    renderInApp(
      <div>
        <p>zunaj</p>
        <UserMenu user={user([2])} onLogout={() => undefined} />
      </div>,
    );
    expect(screen.queryByText('Odjava')).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'AN, Uporabniški meni: Ana Novak' }));
    });
    await waitFor(() => expect(screen.getByText('Odjava')).toBeTruthy());
    expect(screen.getByText('Ana Novak')).toBeTruthy();
    expect(screen.getByText('Lekarna z zelo dolgim imenom v s…')).toBeTruthy();
    expect(screen.getByText('Profil')).toBeTruthy();
    expect(screen.getByText('Zaključena izobraževanja')).toBeTruthy();
    expect(screen.getByText('Novičnik').closest('a')?.getAttribute('href')).toBe('/novicnik');
    await act(async () => {
      fireEvent.mouseDown(screen.getByText('zunaj'));
      fireEvent.click(screen.getByText('zunaj'));
    });
    await waitFor(() => expect(screen.queryByText('Odjava')).toBeNull());
  });

  it('leaves the newsletters out of the user menu while their feature is off', async () => {
    renderInApp(<UserMenu user={user([10])} onLogout={() => undefined} />, { newsletters: false });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'AN, Uporabniški meni: Ana Novak' }));
    });
    await waitFor(() => expect(screen.getByText('Odjava')).toBeTruthy());
    expect(screen.queryByText('Novičnik')).toBeNull();
  });
});
