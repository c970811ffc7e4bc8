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
  if (input.endsWith('/sign/code')) return json(200, { challengeId: '0b8f7c1e-2d3b-4b7e-9a43-7b2f2b0c9f11', expiresAt: '2026-11-27T10:10:00.000Z' });
  if (body.password !== 'Demo1234!') return json(422, { errors: [{ code: '422', field: 'password', message: 'Geslo ni pravilno.' }] });
  if (body.secondFactorCode !== undefined && body.secondFactorCode !== '123456')
    return json(422, { errors: [{ code: '422', field: 'secondFactorCode', message: 'Koda iz e-pošte ni pravilna ali je potekla.' }] });
  return json(200, { approvalVersion: 3 });
};

const MEANING = {
  approved:
    'S tem elektronskim podpisom potrjujem, da sem pregledal(a) vsebino izobraževanja v različici 3 (zgoščena vrednost abc123def456abc1…) in jo v koraku »Pravni pregled« odobravam.',
  rejected:
    'S tem elektronskim podpisom potrjujem, da sem pregledal(a) vsebino izobraževanja v različici 3 (zgoščena vrednost abc123def456abc1…) in jo v koraku »Pravni pregled« zavračam.',
};

const renderDialog = (
  decision: 'approved' | 'rejected',
  onSigned = vi.fn(),
  signing: { passwordSet: boolean; secondFactor: boolean } | null = { passwordSet: true, secondFactor: false },
) => {
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
          meaning={MEANING[decision]}
          signing={signing}
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
    // Exactly the API's sentence, which the signature records (decision 0063).
    expect(within(dialog).getByTestId('signature-meaning').textContent).toBe(MEANING.approved);
    const password = within(dialog).getByLabelText(/Za elektronski podpis znova vnesite geslo/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Odobri' }));
    expect(await within(dialog).findByText('Vpišite geslo.')).toBeTruthy();
    expect(requests).toEqual([]);
    fireEvent.change(password, { target: { value: 'napačno' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Odobri' }));
    expect(await within(dialog).findByText('Geslo ni pravilno.')).toBeTruthy();
    expect(onSigned).not.toHaveBeenCalled();
    // A wrong password is not kept.
    expect((password as HTMLInputElement).value).toBe('');
    fireEvent.change(password, { target: { value: 'Demo1234!' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Odobri' }));
    await waitFor(() => expect(onSigned).toHaveBeenCalledWith('approved'));
    expect(requests.at(-1)).toEqual({
      url: '/api/courses/7/approval/sign',
      body: { approvalVersion: 3, step: 'legal', decision: 'approved', comment: '', contentHash: 'abc123def456abc123def456', password: 'Demo1234!' },
    });
  });

  it('asks for the code mailed to a signer with the second factor on, and sends it with the signature', async () => {
    const onSigned = renderDialog('approved', vi.fn(), { passwordSet: true, secondFactor: true });
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Za elektronski podpis znova vnesite geslo/), { target: { value: 'Demo1234!' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Odobri' }));
    expect(await within(dialog).findByText('Najprej zahtevajte kodo, ki jo pošljemo na vaš e-naslov.')).toBeTruthy();
    expect(requests).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pošlji kodo po e-pošti' }));
    expect(await within(dialog).findByRole('button', { name: 'Pošlji novo kodo' })).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/Koda iz e-pošte/), { target: { value: '654321' } });
    fireEvent.change(within(dialog).getByLabelText(/Za elektronski podpis znova vnesite geslo/), { target: { value: 'Demo1234!' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Odobri' }));
    expect(await within(dialog).findByText('Koda iz e-pošte ni pravilna ali je potekla.')).toBeTruthy();
    // The API checks the code after the password: the right password stays, only the code is typed again.
    expect((within(dialog).getByLabelText(/Za elektronski podpis znova vnesite geslo/) as HTMLInputElement).value).toBe('Demo1234!');
    expect((within(dialog).getByLabelText(/Koda iz e-pošte/) as HTMLInputElement).value).toBe('');
    fireEvent.change(within(dialog).getByLabelText(/Koda iz e-pošte/), { target: { value: '123456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Odobri' }));
    await waitFor(() => expect(onSigned).toHaveBeenCalledWith('approved'));
    expect(requests.at(-1)?.body).toMatchObject({ secondFactorChallenge: '0b8f7c1e-2d3b-4b7e-9a43-7b2f2b0c9f11', secondFactorCode: '123456' });
  });

  it('tells a social-only account without a password to set one before signing', async () => {
    renderDialog('approved', vi.fn(), { passwordSet: false, secondFactor: false });
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('sign-no-password').textContent).toMatch(/nastavite geslo/);
    expect((within(dialog).getByRole('button', { name: 'Odobri' }) as HTMLButtonElement).disabled).toBe(true);
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
