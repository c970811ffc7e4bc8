// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../../lib/i18n.ts';
import type { CourseApproval } from '../api/approvals.ts';
import { CourseApprovalPanel, panelState } from './course-approval-panel.tsx';

const STEPS = [
  { key: 'medical', label: 'Medicinski pregled' },
  { key: 'legal', label: 'Pravni pregled' },
  { key: 'regulatory', label: 'Regulatorni pregled' },
];
const base: CourseApproval = {
  required: true,
  scope: '3',
  steps: STEPS,
  contentHash: 'h2',
  current: null,
  lastApproved: null,
  published: null,
  upToDate: false,
};
const signed = (decision: 'approved' | 'rejected' | null, comment: string | null = null) =>
  STEPS.map((s, i) => ({
    ...s,
    decision: i === 0 ? decision : null,
    signerName: i === 0 && decision ? 'Mojca Medic' : null,
    signedAt: i === 0 && decision ? '2026-11-27T10:00:00.000Z' : null,
    comment: i === 0 ? comment : null,
    mayISign: false,
  }));
const pending = (hash: string) => ({
  approvalVersion: 2,
  status: 'pending' as const,
  contentHash: hash,
  submittedBy: { id: 9, name: 'Nina Naročnik' },
  submittedAt: '2026-11-27T09:00:00.000Z',
  steps: signed('approved'),
});
const approvedV1 = { approvalVersion: 1, contentHash: 'h1', code: 'MEDI-2026-0042', grantedAt: '2026-11-26T12:00:00.000Z' };

describe('the approval panel state (issue 36)', () => {
  it('is not required without settings or history', () => {
    expect(panelState({ ...base, required: false })).toEqual({ kind: 'notRequired' });
  });
  it('is approved while the content is the approved one, and changed after an edit of it', () => {
    expect(panelState({ ...base, contentHash: 'h1', lastApproved: approvedV1, upToDate: true })).toEqual({ kind: 'approved' });
    expect(panelState({ ...base, contentHash: 'h2', lastApproved: approvedV1, upToDate: false })).toEqual({ kind: 'notSubmitted', changed: true });
  });
  it('waits while the content submitted is the content now; a later edit needs a new submission', () => {
    expect(panelState({ ...base, current: pending('h2') })).toEqual({ kind: 'pending', changed: false });
    expect(panelState({ ...base, current: pending('h1') })).toEqual({ kind: 'notSubmitted', changed: true });
  });
  it('is rejected with the rejected version as it stands', () => {
    expect(panelState({ ...base, current: { ...pending('h2'), status: 'rejected' } })).toEqual({ kind: 'rejected', changed: false });
  });
});

const requests: { method: string; url: string; body: unknown }[] = [];
let approval: CourseApproval = base;
let publishAnswer: { status: number; body: unknown } = { status: 200, body: { id: 7 } };
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const answer = async (input: string, init: RequestInit = {}) => {
  const method = init.method ?? 'GET';
  requests.push({ method, url: input, body: init.body ? JSON.parse(String(init.body)) : null });
  if (input === '/api/courses/7' && method === 'GET') return json(200, { published: false, fields: { title: 'Astma' } });
  if (input === '/api/courses/7/approval') return json(200, approval);
  if (input === '/api/courses/7/publish') return json(publishAnswer.status, publishAnswer.body);
  return json(200, {});
};

const renderPanel = () =>
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <CourseApprovalPanel courseId={7} />
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

describe('the approval panel of the course editor (issue 36)', () => {
  it('submits the content as it is now, with the optional comment', async () => {
    approval = base;
    renderPanel();
    expect(await screen.findByText('Ni poslano v odobritev')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pošlji v odobritev' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Komentar za odobritelje (neobvezno)'), { target: { value: 'Nova izdaja' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pošlji v odobritev' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'POST')).toEqual({
        method: 'POST',
        url: '/api/courses/7/approval/submit',
        body: { contentHash: 'h2', comment: 'Nova izdaja' },
      }),
    );
  });

  it('shows each step of a version waiting, and withdraws it', async () => {
    approval = { ...base, current: pending('h2') };
    renderPanel();
    expect(await screen.findByText('Čaka na odobritev')).toBeTruthy();
    const steps = screen.getByTestId('approval-steps-state');
    expect(within(steps).getByText(/Mojca Medic/)).toBeTruthy();
    expect(steps.querySelectorAll('[data-decision="waiting"]').length).toBe(2);
    expect(screen.queryByRole('button', { name: 'Pošlji v odobritev' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Umakni iz odobritve' }));
    await waitFor(() => expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ approvalVersion: 2 }));
  });

  it('shows the approval code while the content is approved, and says when it changed since', async () => {
    approval = { ...base, contentHash: 'h1', lastApproved: approvedV1, upToDate: true };
    renderPanel();
    expect(await screen.findByText('MEDI-2026-0042')).toBeTruthy();
    cleanup();
    approval = { ...base, contentHash: 'h3', lastApproved: approvedV1, upToDate: false };
    renderPanel();
    expect(await screen.findByTestId('approval-changed')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Pošlji v odobritev' })).toBeTruthy();
  });

  it('shows the rejection with its comment', async () => {
    approval = { ...base, current: { ...pending('h2'), status: 'rejected', steps: signed('rejected', 'Manjka vir podatkov.') } };
    renderPanel();
    expect(await screen.findByText('Zavrnjeno')).toBeTruthy();
    expect(screen.getByText(/Manjka vir podatkov\./)).toBeTruthy();
  });

  it("puts the server's refusal to publish where it is read", async () => {
    approval = base;
    publishAnswer = {
      status: 422,
      body: { errors: [{ code: '422', field: null, message: 'Izobraževanje mora biti pred objavo odobreno (manjkajo odobritve: Medicinski pregled).' }] },
    };
    renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: 'Objavi' }));
    const refusal = await screen.findByRole('alert');
    expect(refusal.textContent).toContain('manjkajo odobritve: Medicinski pregled');
  });
});
