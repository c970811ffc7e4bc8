// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../lib/i18n.ts';
import { RxLinkWarning } from './rx-link-warning.tsx';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const asked: string[][] = [];
const answer = async (input: string, init?: RequestInit) => {
  if (input !== '/api/linked-rx-courses') return json(404, { errors: [] });
  const { texts } = JSON.parse(String(init?.body)) as { texts: string[] };
  asked.push(texts);
  // The server finds the links (course-links.ts); here course 7 is the RX one.
  return json(200, { items: texts.some((text) => text.includes('7')) ? [{ id: 7, title: 'Antikoagulanti' }] : [] });
};

const show = (texts: (string | null)[]) =>
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RxLinkWarning texts={texts} />
        <span>konec</span>
      </QueryClientProvider>
    </MantineProvider>,
  );

beforeAll(() => {
  setupI18n();
  vi.stubGlobal('fetch', vi.fn(answer));
});
afterEach(() => {
  cleanup();
  asked.length = 0;
});

describe('the editors’ warning of a linked RX course (issue 36)', () => {
  it('names the linked RX course and says who will see the text', async () => {
    show(['/izobrazevanja/7', '<p>Preberite <a href="&#47;izobrazevanja&#47;7">več</a>.</p>']);
    const warning = await screen.findByTestId('rx-link-warning');
    expect(warning.textContent).toContain('Povezano izobraževanje je Rx: videli ga bodo le poklici, ki lahko predpisujejo ali izdajajo zdravila.');
    expect(warning.textContent).toContain('Antikoagulanti (#7)');
    expect(asked).toEqual([['/izobrazevanja/7', '<p>Preberite <a href="&#47;izobrazevanja&#47;7">več</a>.</p>']]);
  });

  it('says nothing when no linked course is RX, and asks nothing of a text without a number', async () => {
    show(['/izobrazevanja/5', null]);
    await vi.waitFor(() => expect(asked).toEqual([['/izobrazevanja/5']]));
    expect(screen.getByText('konec')).toBeTruthy();
    expect(screen.queryByTestId('rx-link-warning')).toBeNull();
    cleanup();
    asked.length = 0;
    show(['https://primer.si', 'Brez povezav.']);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(asked).toEqual([]);
    expect(screen.queryByTestId('rx-link-warning')).toBeNull();
  });
});
