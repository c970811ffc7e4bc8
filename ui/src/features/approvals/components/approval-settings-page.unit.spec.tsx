// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../../lib/i18n.ts';
import { ApprovalSettingsPage } from './approval-settings-page.tsx';

const requests: { method: string; url: string; body: unknown }[] = [];
let saved: unknown = null;
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const answer = async (input: string, init: RequestInit = {}) => {
  const method = init.method ?? 'GET';
  requests.push({ method, url: input, body: init.body ? JSON.parse(String(init.body)) : null });
  if (input.startsWith('/api/companies')) return json(200, { items: [{ id: 3, name: 'Lekarne Zdravje d.o.o.' }], total: 1 });
  if (input.startsWith('/api/users')) return json(200, { items: [{ id: 21, fullName: 'Mojca Medic' }], total: 1 });
  if (input.startsWith('/api/approval-settings/') && method === 'GET') return json(200, saved);
  return json(200, { position: '1-1' });
};

const renderPage = () =>
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ApprovalSettingsPage />
      </QueryClientProvider>
    </MantineProvider>,
  );

beforeAll(() => {
  setupI18n();
  vi.stubGlobal('fetch', vi.fn(answer));
});
afterEach(() => {
  cleanup();
  requests.length = 0;
});

const stepLabels = () => screen.getAllByLabelText(/^Ime koraka/).map((input) => (input as HTMLInputElement).value);

describe('Odobritve vsebin (issue 36)', () => {
  it('starts from the medical, legal and regulatory steps, refuses approval on without approvers, in Slovenian', async () => {
    saved = {
      scope: 'platform',
      enabled: false,
      codePrefix: 'MEDI',
      steps: [
        { key: 'medical', label: 'Medicinski pregled', approverIds: [] },
        { key: 'legal', label: 'Pravni pregled', approverIds: [] },
        { key: 'regulatory', label: 'Regulatorni pregled', approverIds: [] },
      ],
    };
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Odobritve vsebin' })).toBeTruthy();
    await waitFor(() => expect(stepLabels()).toEqual(['Medicinski pregled', 'Pravni pregled', 'Regulatorni pregled']));
    fireEvent.click(screen.getByRole('switch'));
    fireEvent.change(screen.getByLabelText(/Predpona kode odobritve/), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Shrani' }));
    expect(await screen.findByText('Predpona kode ima od 2 do 8 velikih črk ali številk.')).toBeTruthy();
    expect(screen.getAllByText('Vsak korak potrebuje vsaj enega odobritelja.')).toHaveLength(3);
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);
  });

  it('adds, renames, moves and removes steps and saves them with their approvers', async () => {
    saved = {
      scope: 'platform',
      enabled: true,
      codePrefix: 'MEDI',
      steps: [
        { key: 'medical', label: 'Medicinski pregled', approverIds: [21], approvers: [{ id: 21, name: 'Mojca Medic' }] },
        { key: 'legal', label: 'Pravni pregled', approverIds: [21], approvers: [{ id: 21, name: 'Mojca Medic' }] },
      ],
    };
    renderPage();
    await waitFor(() => expect(stepLabels()).toEqual(['Medicinski pregled', 'Pravni pregled']));
    // Separation of duties: one person alone on two steps is warned about (the API's own check).
    expect(screen.getByTestId('approval-warnings').textContent).toContain(
      'Mojca Medic je edini odobritelj v več korakih (Medicinski pregled, Pravni pregled).',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Odstrani korak Pravni pregled' }));
    await waitFor(() => expect(stepLabels()).toEqual(['Medicinski pregled']));
    expect(screen.queryByTestId('approval-warnings')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Dodaj korak' }));
    const inputs = screen.getAllByLabelText(/^Ime koraka/);
    fireEvent.change(inputs[1] as HTMLElement, { target: { value: 'Farmakovigilanca' } });
    // The new step is moved to the top with its up button (the keyboard's way; dragging is the mouse's).
    const rows = screen.getAllByTestId('sortable-row');
    fireEvent.click(within(rows[1] as HTMLElement).getAllByRole('button')[0] as HTMLElement);
    await waitFor(() => expect(stepLabels()).toEqual(['Farmakovigilanca', 'Medicinski pregled']));
    fireEvent.click(screen.getByRole('button', { name: 'Shrani' }));
    // Approval is on and the new step has nobody yet.
    expect(await screen.findByText('Vsak korak potrebuje vsaj enega odobritelja.')).toBeTruthy();
    fireEvent.click(screen.getByRole('switch'));
    fireEvent.click(screen.getByRole('button', { name: 'Shrani' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'PUT')).toEqual({
        method: 'PUT',
        url: '/api/approval-settings/platform',
        body: {
          enabled: false,
          codePrefix: 'MEDI',
          steps: [
            { key: 'farmakovigilanca', label: 'Farmakovigilanca', approverIds: [] },
            { key: 'medical', label: 'Medicinski pregled', approverIds: [21] },
          ],
        },
      }),
    );
  });
});
