// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../../lib/i18n.ts';
import type { ApprovalTrail, TrailRow } from '../api/approval-trail.ts';
import { ApprovalTrailPage } from './approval-trail-page.tsx';

const H = 'ab'.repeat(32);
const row = (kind: TrailRow['kind'], fields: Partial<TrailRow> = {}): TrailRow => ({
  at: '2026-11-27T09:00:05.000Z',
  kind,
  approvalVersion: 1,
  step: null,
  stepLabel: null,
  who: null,
  meaning: `Pomen ${kind}`,
  comment: null,
  contentHash: H,
  code: null,
  method: null,
  hashMatchesContent: true,
  revision: 0,
  ...fields,
});
const trail = (asOf: string | null): ApprovalTrail => ({
  course: { id: 7, title: 'Astma pri otrocih', type: 1, companyId: 3 },
  asOf,
  generatedAt: '2026-11-27T10:00:00.000Z',
  rows: [
    row('submitted', { who: { id: 2, name: 'Nina Naročnik' }, comment: 'Prosim za pregled.', revision: 3 }),
    row('signed', { step: 'medical', stepLabel: 'Medicinski pregled', who: { id: 5, name: 'Maja Medicina' }, method: 'password', revision: 4 }),
    ...(asOf
      ? []
      : [
          row('granted', { code: 'MEDI-2026-0001', revision: 5 }),
          row('content-changed', { who: { id: 2, name: 'Nina Naročnik' }, contentHash: 'cd'.repeat(32), hashMatchesContent: null, revision: 6 }),
          // A save of the scope's approval settings (decision 0064): its revision is its own stream's, the same number as the submission's here.
          row('settings-changed', {
            who: { id: 1, name: 'Ana Skrbnica' },
            approvalVersion: null,
            contentHash: null,
            hashMatchesContent: null,
            revision: 3,
            meaning: 'Nastavitve odobritev, ki veljajo za to izobraževanje, so spremenjene: odobritev pred objavo je izključena.',
          }),
        ]),
  ],
  verification: asOf
    ? {
        publishedHash: null,
        approvedHash: null,
        currentHash: H,
        approvalCode: null,
        approvalVersion: null,
        publishedAt: null,
        matches: false,
        status: 'not-published',
        reason: 'Izobraževanje ni objavljeno. Nobena različica še ni odobrena.',
      }
    : {
        publishedHash: H,
        approvedHash: H,
        currentHash: 'cd'.repeat(32),
        approvalCode: 'MEDI-2026-0001',
        approvalVersion: 1,
        publishedAt: '2026-11-27T09:01:00.000Z',
        matches: false,
        status: 'mismatch',
        reason: 'Vsebina je bila po objavi spremenjena.',
      },
});

const requests: string[] = [];
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const answer = async (input: string) => {
  requests.push(input);
  const url = new URL(input, 'http://localhost');
  if (url.pathname === '/api/approval-trail/courses')
    return json(200, { items: [{ id: 7, title: 'Astma pri otrocih', published: true, status: 'published', companyName: 'Lekarne' }] });
  if (url.pathname === '/api/courses/7/approval/trail') return json(200, trail(url.searchParams.get('asOf')));
  if (url.pathname === '/api/courses/8/approval/trail') return json(404, { errors: [{ code: '404', field: null, message: 'Izobraževanje ne obstaja.' }] });
  return json(200, {});
};

const renderPage = (path: string, allowed = true) =>
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={[path]}>
          <ApprovalTrailPage allowed={allowed} />
        </MemoryRouter>
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

describe('the approval trail page (issue 36 item 3)', () => {
  it('finds a course and shows its trail: actions, signers with the method, comments, the code, the verification and its reason', async () => {
    renderPage('/revizija/odobritve');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Revizijska sled odobritev');
    fireEvent.change(screen.getByLabelText('Naslov ali ID izobraževanja'), { target: { value: 'a' } });
    fireEvent.click(screen.getByRole('button', { name: 'Poišči' }));
    expect(await screen.findByText('Vnesite vsaj 2 znaka.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Naslov ali ID izobraževanja'), { target: { value: 'astma' } });
    fireEvent.click(screen.getByRole('button', { name: 'Poišči' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Astma pri otrocih (ID 7, Lekarne, objavljeno)' }));
    const table = await screen.findByTestId('trail-table');
    const kinds = [...table.querySelectorAll('tbody tr')].map((tr) => tr.getAttribute('data-kind'));
    expect(kinds).toEqual(['submitted', 'signed', 'granted', 'content-changed', 'settings-changed']);
    expect(within(table).getByText('Sprememba nastavitev')).toBeTruthy();
    expect(within(table).getByText(/odobritev pred objavo je izključena/)).toBeTruthy();
    expect(within(table).getByText('Ana Skrbnica')).toBeTruthy();
    expect(within(table).getByText('Predložitev')).toBeTruthy();
    expect(within(table).getByText('Sprememba vsebine')).toBeTruthy();
    expect(within(table).getByText('Maja Medicina')).toBeTruthy();
    expect(within(table).getByText('podpis s ponovnim vnosom gesla')).toBeTruthy();
    expect(within(table).getByText('Medicinski pregled')).toBeTruthy();
    expect(within(table).getByText('Komentar: Prosim za pregled.')).toBeTruthy();
    expect(within(table).getByText('MEDI-2026-0001')).toBeTruthy();
    // Times to the second, in Ljubljana.
    expect(within(table).getAllByText('27. nov. 2026, 10:00:05').length).toBe(5);
    expect(screen.getByTestId('verification-badge').textContent).toBe('Ne ujema se');
    expect(screen.getByTestId('verification-reason').textContent).toBe('Vsebina je bila po objavi spremenjena.');
    expect(screen.getByText('Koda MEDI-2026-0001')).toBeTruthy();
  });

  it('replays as of a chosen moment, typed in Ljubljana time, and back to now', async () => {
    renderPage('/revizija/odobritve?course=7');
    await screen.findByTestId('trail-table');
    fireEvent.change(screen.getByTestId('trail-as-of'), { target: { value: '27. 11. 2026 10:00:30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Prikaži stanje' }));
    await waitFor(() => expect(screen.getByTestId('verification-badge').textContent).toBe('Ni objavljeno'));
    expect(requests.at(-1)).toBe(`/api/courses/7/approval/trail?asOf=${encodeURIComponent('2026-11-27T09:00:30.000Z')}`);
    expect(screen.getByTestId('trail-table').querySelectorAll('tbody tr').length).toBe(2);
    expect(screen.getByTestId('trail-as-of-label').textContent).toBe('Prikazano je stanje na 27. nov. 2026, 10:00:30.');
    // The view of the new moment replaced the button that had the focus: the sentence saying which moment it shows has it.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('trail-as-of-label')));
    fireEvent.click(screen.getByRole('button', { name: 'Trenutno stanje' }));
    await waitFor(() => expect(screen.getByTestId('verification-badge').textContent).toBe('Ne ujema se'));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('trail-as-of-label')));
  });

  it('says so for a course that does not exist, and to someone without the permission', async () => {
    renderPage('/revizija/odobritve?course=8');
    expect(await screen.findByText('Izobraževanje ne obstaja.')).toBeTruthy();
    cleanup();
    renderPage('/revizija/odobritve?course=7', false);
    expect(screen.getByText('Nimate pravic za ogled revizijske sledi odobritev.')).toBeTruthy();
    expect(requests).not.toContain('/api/courses/7/approval/trail');
  });
});
