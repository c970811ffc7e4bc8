// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../../lib/i18n.ts';
import { XapiOutPage } from './xapi-out-page.tsx';

const OVERVIEW = {
  endpoint: 'https://lrs.podjetje.si/xapi',
  head: '812-4410',
  destination: { readUpTo: '812-4410', counts: { pending: 0, sent: 2, failed: 1 }, backfill: null },
};
const DELIVERY = {
  eventType: 'CourseCompleted',
  verb: 'completed',
  courseId: 7,
  courseTitle: 'Interakcije zdravil',
  position: '812-4409',
  eventAt: '2026-03-04T10:11:12.000Z',
  attempts: 1,
  lastStatus: 204,
  nextAttemptAt: null,
  accepted: 1,
};
const ITEMS = [
  { ...DELIVERY, statementId: 's1', status: 'sent', lastError: null, sentAt: '2026-03-04T10:11:13.000Z' },
  {
    ...DELIVERY,
    statementId: 's2',
    verb: 'answered',
    eventType: 'QuizAnswerSubmitted',
    status: 'failed',
    lastError: 'LRS je odgovoril 400: zavrnjeno',
    sentAt: null,
  },
];

/** The API as the page sees it: each request is recorded and answered. */
const requests: { method: string; url: string; body: unknown }[] = [];
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const answer = async (input: string, init: RequestInit = {}) => {
  requests.push({ method: init.method ?? 'GET', url: input, body: init.body ? JSON.parse(String(init.body)) : null });
  if (input.startsWith('/api/xapi-out/deliveries')) {
    const status = new URL(input, 'http://x').searchParams.get('status');
    const items = status ? ITEMS.filter((i) => i.status === status) : ITEMS;
    return json(200, { items, total: items.length });
  }
  if (input === '/api/xapi-out/backfill') return json(202, { from: '12-33', until: '812-4410' });
  return json(200, OVERVIEW);
};

const renderPage = () =>
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <XapiOutPage />
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

describe('Zapisi xAPI (issue 35 item 5)', () => {
  it('shows where statements go, the counts, and the log under its column headings', async () => {
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Zapisi xAPI' })).toBeTruthy();
    expect(screen.getByText('https://lrs.podjetje.si/xapi')).toBeTruthy();
    expect(within(screen.getByTestId('xapi-counts')).getByText('Napaka: 1')).toBeTruthy();
    const table = await screen.findByTestId('xapi-deliveries');
    const headings = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headings).toEqual(['Čas dogodka', 'Izjava', 'Izobraževanje', 'Položaj', 'Stanje', 'Poskusi', 'Zadnja napaka', 'Poslano']);
    expect(within(table).getByText('zaključil')).toBeTruthy();
    expect(within(table).getByText('Zaključeno izobraževanje')).toBeTruthy();
    expect(within(table).getByText('LRS je odgovoril 400: zavrnjeno')).toBeTruthy();
    expect(within(table).getAllByText('poslano').length).toBeGreaterThan(0);
  });

  it('filters the log by status', async () => {
    renderPage();
    await screen.findByTestId('xapi-deliveries');
    fireEvent.change(screen.getByLabelText('Stanje'), { target: { value: 'failed' } });
    await waitFor(() => expect(requests.some((r) => r.url.includes('status=failed'))).toBe(true));
    await waitFor(() => expect(screen.getAllByTestId('xapi-delivery').map((row) => row.dataset.status)).toEqual(['failed']));
  });

  it('checks the backfill form before sending it: one of a day or a position, a position as 123-456', async () => {
    renderPage();
    const submit = await screen.findByRole('button', { name: 'Pošlji znova' });
    fireEvent.click(submit);
    expect(await screen.findByText('Vnesite datum ali položaj dogodka (eno od obeh)')).toBeTruthy();
    fireEvent.click(screen.getByText('Od položaja dogodka'));
    const position = await screen.findByLabelText(/Položaj dogodka/);
    fireEvent.change(position, { target: { value: 'abc' } });
    fireEvent.click(submit);
    expect(await screen.findByText('Položaj dogodka je oblike 123-456')).toBeTruthy();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
    fireEvent.change(position, { target: { value: '12-34' } });
    fireEvent.click(submit);
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'POST')).toEqual({ method: 'POST', url: '/api/xapi-out/backfill', body: { position: '12-34' } }),
    );
  });
});
