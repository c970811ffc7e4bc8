// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../../lib/i18n.ts';
import { NewsletterFormPage } from './newsletter-form-page.tsx';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const answer = async (input: string, init?: RequestInit) => {
  if (input === '/api/features') return json(200, { newsletters: true });
  if (input === '/api/linked-rx-courses') {
    const { texts } = JSON.parse(String(init?.body)) as { texts: string[] };
    return json(200, { items: texts.some((text) => /izobrazevanja(\/|%2F)7/.test(text)) ? [{ id: 7, title: 'Antikoagulanti' }] : [] });
  }
  return json(200, { items: [], total: 0 });
};

beforeAll(() => {
  setupI18n();
  // The description's autosize listens for fonts loading, which happy-dom does not have.
  if (!document.fonts) Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });
  vi.stubGlobal('fetch', vi.fn(answer));
});
afterEach(cleanup);

describe('the newsletter editor (issue 36)', () => {
  it('warns when the address or the description links an RX course', async () => {
    render(
      <MantineProvider>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter>
            <NewsletterFormPage id={null} />
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>,
    );
    fireEvent.change(await screen.findByLabelText('Povezava do novičnika'), { target: { value: 'https://medilearn.si/izobrazevanja/5' } });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(screen.queryByTestId('rx-link-warning')).toBeNull();
    fireEvent.change(screen.getByRole('textbox', { name: /Opis/ }), { target: { value: 'Novo: medilearn.si/izobrazevanja%2F7' } });
    expect((await screen.findByTestId('rx-link-warning', {}, { timeout: 2000 })).textContent).toContain('Antikoagulanti (#7)');
  });
});
