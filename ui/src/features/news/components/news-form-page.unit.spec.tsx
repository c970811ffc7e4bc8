// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../../lib/i18n.ts';
import { NewsFormPage } from './news-form-page.tsx';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const answer = async (input: string, init?: RequestInit) => {
  if (input === '/api/linked-rx-courses') {
    const { texts } = JSON.parse(String(init?.body)) as { texts: string[] };
    return json(200, { items: texts.some((text) => text.includes('/izobrazevanja/7')) ? [{ id: 7, title: 'Antikoagulanti' }] : [] });
  }
  return json(200, { items: [], total: 0 });
};

beforeAll(() => {
  setupI18n();
  vi.stubGlobal('fetch', vi.fn(answer));
});
afterEach(cleanup);

describe('the news editor (issue 36)', () => {
  it('warns when the button links an RX course', async () => {
    render(
      <MantineProvider>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter>
            <NewsFormPage id={null} />
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>,
    );
    fireEvent.change(await screen.findByLabelText('Naslov, ki ga odpre gumb'), { target: { value: '/izobrazevanja/5' } });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(screen.queryByTestId('rx-link-warning')).toBeNull();
    fireEvent.change(screen.getByLabelText('Naslov, ki ga odpre gumb'), { target: { value: '/izobrazevanja/7' } });
    expect((await screen.findByTestId('rx-link-warning')).textContent).toContain('Povezano izobraževanje je Rx');
  });
});
