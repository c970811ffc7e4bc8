// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../../lib/i18n.ts';
import { SignDialog } from './sign-dialog.tsx';

const requests: { url: string; body: Record<string, unknown> }[] = [];
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const answer = async (input: string, init: RequestInit = {}) => {
  const body = JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>;
  requests.push({ url: input, body });
  if (body.password !== 'Demo1234!') return json(422, { errors: [{ code: '422', field: 'password', message: 'Geslo ni pravilno.' }] });
  return json(200, { approvalVersion: 3 });
};

const renderDialog = (decision: 'approved' | 'rejected', onSigned = vi.fn()) => {
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <SignDialog
          opened
          onClose={() => undefined}
          onSigned={onSigned}
          courseId={7}
          title="Astma"
          approvalVersion={3}
          step={{ key: 'legal', label: 'Pravni pregled' }}
          contentHash="abc123def456abc123def456"
          decision={decision}
        />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return onSigned;
};

beforeAll(() => {
  setupI18n();
  vi.stubGlobal('fetch', vi.fn(answer));
});
afterEach(() => {
  cleanup();
  requests.length = 0;
});

describe('the electronic signature dialog (issue 36)', () => {
  it('explains what the signature means and refuses a wrong password, then signs with the right one', async () => {
    const onSigned = renderDialog('approved');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('signature-meaning').textContent).toBe(
      'Potrjujem, da sem v koraku »Pravni pregled« pregledal(a) vsebino izobraževanja »Astma« (različica 3) in jo odobravam za objavo.',
    );
    const password = within(dialog).getByLabelText(/Za elektronski podpis znova vnesite geslo/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Odobri' }));
    expect(await within(dialog).findByText('Vpišite geslo.')).toBeTruthy();
    expect(requests).toEqual([]);
    fireEvent.change(password, { target: { value: 'napačno' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Odobri' }));
    expect(await within(dialog).findByText('Geslo ni pravilno.')).toBeTruthy();
    expect(onSigned).not.toHaveBeenCalled();
    fireEvent.change(password, { target: { value: 'Demo1234!' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Odobri' }));
    await waitFor(() => expect(onSigned).toHaveBeenCalledWith('approved'));
    expect(requests.at(-1)).toEqual({
      url: '/api/courses/7/approval/sign',
      body: { approvalVersion: 3, step: 'legal', decision: 'approved', comment: '', contentHash: 'abc123def456abc123def456', password: 'Demo1234!' },
    });
  });

  it('asks a rejection for its reason', async () => {
    renderDialog('rejected');
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Za elektronski podpis/), { target: { value: 'Demo1234!' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Zavrni' }));
    expect(await within(dialog).findByText('Napišite, zakaj vsebine ne odobrite.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/Razlog zavrnitve/), { target: { value: 'Manjka vir.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Zavrni' }));
    await waitFor(() => expect(requests.at(-1)?.body).toMatchObject({ decision: 'rejected', comment: 'Manjka vir.' }));
  });
});
