// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../../lib/i18n.ts';
import { ApprovalReviewPage } from './approval-review-page.tsx';

const HASH = 'a'.repeat(64);
const content = (text: string, extra: object[] = []) => ({
  approvalVersion: 2,
  contentHash: HASH,
  fields: { type: 3, title: 'Astma', description: 'Pravilna uporaba inhalatorja.', creditPoints: 1, public: false },
  blocks: [{ id: 5, fields: { kind: 'article', name: 'Navodila', html: `<p>${text}</p>` } }, ...extra],
  attachments: [],
});
const APPROVAL = {
  required: true,
  scope: 3,
  steps: [],
  contentHash: HASH,
  current: {
    approvalVersion: 2,
    status: 'pending',
    contentHash: HASH,
    submittedBy: { id: 9, name: 'Nina Naročnik' },
    submittedAt: '2026-11-27T09:00:00.000Z',
    comment: 'Popravek vejice.',
    steps: [
      {
        key: 'medical',
        label: 'Medicinski pregled',
        decision: 'approved',
        signerName: 'Maja Medicina',
        signedAt: '2026-11-27T09:10:00.000Z',
        comment: null,
        mayISign: false,
      },
      {
        key: 'legal',
        label: 'Pravni pregled',
        decision: null,
        signerName: null,
        signedAt: null,
        comment: null,
        // The API's sentence (decision 0063): the dialog shows exactly it.
        meaningToSign: { approved: 'Podpisujem odobritev v koraku »Pravni pregled«.', rejected: 'Podpisujem zavrnitev v koraku »Pravni pregled«.' },
        mayISign: true,
      },
    ],
  },
  lastApproved: { approvalVersion: 1, contentHash: 'b'.repeat(64), code: 'MEDI-2026-0001', grantedAt: '2026-11-20T09:00:00.000Z' },
  published: null,
  upToDate: false,
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const answer = async (input: string) => {
  if (input === '/api/courses/7/approval') return json(200, APPROVAL);
  if (input === '/api/courses/7/approval/versions/2/content')
    return json(
      200,
      content('Inhalator uporabljamo dvakrat na dan, zjutraj in zvečer.', [{ id: 6, fields: { kind: 'article', name: 'Povzetek', html: 'Nov' } }]),
    );
  if (input === '/api/courses/7/approval/versions/1/content') return json(200, content('Inhalator uporabljamo dvakrat na dan.'));
  return json(404, { errors: [{ code: '404', field: null, message: 'Ni.' }] });
};

beforeAll(() => {
  setupI18n();
  vi.stubGlobal('fetch', vi.fn(answer));
});
afterEach(cleanup);

describe('the review of a version under approval (issue 36)', () => {
  it('opens on the diff against the last approved version, marks the changed words and the new block, and offers only my step to sign', async () => {
    render(
      <MantineProvider>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter>
            <ApprovalReviewPage courseId={7} approvalVersion={2} />
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'Pregled: Astma' })).toBeTruthy();
    const diff = await screen.findByTestId('content-diff');
    const change = within(diff).getByTestId('text-change');
    expect(change.querySelector('ins')?.textContent).toBe('dodano: dan, zjutraj in zvečer.');
    expect(change.querySelector('del')?.textContent).toBe('odstranjeno: dan.');
    expect(
      within(diff)
        .getAllByTestId('block-change')
        .map((b) => b.dataset.kind),
    ).toEqual(['changed', 'added']);
    expect(screen.getByText(/Popravek vejice\./)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Odobri korak Medicinski pregled' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Odobri korak Pravni pregled' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('signature-meaning').textContent).toBe('Podpisujem odobritev v koraku »Pravni pregled«.');
  });
});
