// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../../lib/i18n.ts';
import type { ContentSnapshot } from '../api/approvals.ts';
import { ContentPreview } from './content-preview.tsx';

const NAMES = {
  professions: [
    { id: 3, name: 'Magister farmacije', mayPrescribe: true },
    { id: 4, name: 'Medicinska sestra', mayPrescribe: false },
  ],
  units: [{ id: 11, name: 'Lekarna Bežigrad', companyName: 'Lekarne Center' }],
  companies: [{ id: 21, name: 'Lekarne Center' }],
  groups: [{ id: 31, name: 'Ljubljanske lekarne' }],
  professionGroups: [],
  courses: [{ id: 41, name: 'Osnove antikoagulacije' }],
  tags: [{ id: 51, name: 'Kardiologija' }],
};

const SNAPSHOT: ContentSnapshot = {
  fields: {
    type: 1,
    title: 'Antikoagulanti',
    description: 'Za farmacevte.\nDruga vrstica.',
    cover: '/api/files/1',
    creditPoints: 2,
    certificateEnabled: true,
    public: false,
    audience: { byProfession: true, professionIds: [3, 4], unitIds: [11], companyIds: [21], groupIds: [31] },
    lecturer: 'dr. Ana Novak',
    prerequisites: [41],
    tagIds: [51],
    vimeoId: '76979871',
    zoomUrl: 'https://us02web.zoom.us/j/123',
    typeformId: null,
    interactrHtml: null,
    live: null,
    intervals: [],
  },
  blocks: [
    {
      id: 1,
      fields: {
        kind: 'article',
        name: 'Odmerjanje',
        html: '<h3>Odmerek</h3><p>Dvakrat <strong>na dan</strong>.</p><script>steal()</script><img src="x" onerror="steal()">',
      },
    },
    {
      id: 2,
      fields: {
        kind: 'video',
        name: 'Predavanje',
        vimeoId: '123456',
        fileUrl: null,
        durationSeconds: 125,
        alternative: { kind: 'textFile', fileUrl: '/api/files/8' },
      },
    },
    { id: 3, fields: { kind: 'video', name: 'Posnetek', vimeoId: null, fileUrl: '/api/files/9', durationSeconds: null, alternative: null } },
    { id: 4, fields: { kind: 'textFile', name: 'Navodilo (PDF)', fileUrl: '/api/files/10' } },
    { id: 5, fields: { kind: 'typeform', name: 'Vprašalnik', typeformId: 'aBc123' } },
    {
      id: 6,
      fields: {
        kind: 'quiz',
        name: 'Preverjanje',
        batchSize: 1,
        successThreshold: 80,
        retries: 2,
        revealAnswers: 'afterLast',
        afterLastFail: { kind: 'wait', hours: 24 },
        questions: [
          {
            id: 'q1',
            text: 'Kolikokrat na dan?',
            explanation: 'Tako piše v SmPC.',
            answers: [
              { id: 'a', text: 'Enkrat', correct: false },
              { id: 'b', text: 'Dvakrat', correct: true },
            ],
          },
        ],
      },
    },
    {
      id: 7,
      fields: {
        kind: 'package',
        name: 'Modul',
        packageId: 5,
        completion: 'completed',
        threshold: null,
        standard: 'scorm12',
        items: [{ id: 'i1', title: 'Uvod' }],
      },
    },
    { id: 8, fields: { kind: 'interactr', name: 'Interaktivno', html: '<iframe src="https://player.interactr.io/p/1"></iframe>' } },
  ],
  attachments: [{ fileId: 12, name: 'SmPC.pdf' }],
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeAll(() => {
  setupI18n();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => (input === '/api/courses/7/approval/versions/2/names' ? json(200, NAMES) : json(404, { errors: [] }))),
  );
});
afterEach(cleanup);

const show = () =>
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ContentPreview snapshot={SNAPSHOT} courseId={7} approvalVersion={2} />
      </QueryClientProvider>
    </MantineProvider>,
  );

const block = (id: number) => screen.getAllByTestId('preview-block')[id - 1] as HTMLElement;

describe('the version under review as participants will see it (issue 36)', () => {
  it('marks an RX course and names its audience, each profession with whether it may prescribe', async () => {
    show();
    expect(screen.getByTestId('preview-rx').textContent).toBe('Rx – samo za strokovno javnost, ki lahko predpisuje ali izdaja zdravila');
    expect(screen.getByTestId('preview-type').textContent).toBe('Rx · Zdravila na recept');
    const professions = await screen.findByTestId('audience-professions');
    expect(await within(professions).findByText('Magister farmacije')).toBeTruthy();
    expect(professions.textContent).toContain('lahko predpisuje ali izdaja zdravila');
    expect(professions.textContent).toContain('Medicinska sestrane sme prejeti gradiva Rx');
    expect(screen.getByTestId('audience-units').textContent).toContain('Lekarna Bežigrad (Lekarne Center)');
    expect(screen.getByTestId('audience-companies').textContent).toContain('Lekarne Center');
    expect(screen.getByTestId('audience-groups').textContent).toContain('Ljubljanske lekarne');
    expect(screen.getByTestId('preview-audience').textContent).toContain('in imajo enega od izbranih poklicev');
    expect(screen.getByText('Osnove antikoagulacije')).toBeTruthy();
    expect(screen.getByText('Kardiologija')).toBeTruthy();
    expect(screen.queryByText(/professionIds|\[3,4\]/)).toBeNull();
  });

  it('shows the course-level video and Zoom link, flagged as external sources', () => {
    show();
    const preview = screen.getByTestId('content-preview');
    expect(preview.querySelector('iframe[src="https://player.vimeo.com/video/76979871?dnt=1"]')).not.toBeNull();
    expect(screen.getByRole('link', { name: 'https://us02web.zoom.us/j/123' }).getAttribute('href')).toBe('https://us02web.zoom.us/j/123');
    const flags = screen.getAllByTestId('external-source').map((f) => f.textContent);
    expect(flags).toContain('Zunanji vir: vsebina se lahko spremeni brez nove odobritve (Vimeo)');
    expect(flags).toContain('Zunanji vir: vsebina se lahko spremeni brez nove odobritve (Zoom)');
  });

  it('renders an article as formatted, sanitised HTML', () => {
    show();
    const article = within(block(1)).getByTestId('preview-article');
    expect(article.querySelector('h3')?.textContent).toBe('Odmerek');
    expect(article.querySelector('strong')?.textContent).toBe('na dan');
    expect(article.innerHTML).not.toMatch(/script|onerror/);
  });

  it('plays videos, links uploaded files, embeds the form and the Interactr video, marks the right answer', () => {
    show();
    expect(block(2).querySelector('iframe[src="https://player.vimeo.com/video/123456?dnt=1"]')).not.toBeNull();
    expect(within(block(2)).getByRole('link', { name: 'Odpri video na Vimeu (123456)' }).getAttribute('href')).toBe('https://vimeo.com/123456');
    expect(within(block(2)).getByRole('link', { name: 'Odpri datoteko' }).getAttribute('href')).toBe('/api/files/8');
    expect(block(2).textContent).toContain('2 min 5 s');
    expect(within(block(2)).getByTestId('external-source')).toBeTruthy();
    expect(block(3).querySelector('video')?.getAttribute('src')).toBe('/api/files/9');
    expect(within(block(3)).getByRole('link', { name: 'Odpri video' }).getAttribute('href')).toBe('/api/files/9');
    expect(within(block(3)).queryByTestId('external-source')).toBeNull();
    expect(within(block(4)).getByRole('link', { name: 'Odpri datoteko' }).getAttribute('href')).toBe('/api/files/10');
    expect(block(5).querySelector('iframe[src="https://form.typeform.com/to/aBc123"]')).not.toBeNull();
    expect(within(block(5)).getByTestId('external-source').textContent).toContain('Typeform');
    const question = within(block(6)).getByTestId('preview-question');
    expect(question.textContent).toContain('Kolikokrat na dan?');
    expect(question.textContent).toContain('Dvakratpravilen odgovor');
    expect(question.textContent).not.toContain('Enkratpravilen odgovor');
    expect(question.textContent).toContain('Pojasnilo: Tako piše v SmPC.');
    expect(block(6).textContent).toContain('Prag uspešnosti: 80 %');
    expect(block(7).textContent).toContain('SCORM 1.2');
    expect(block(7).textContent).toContain('Uvod');
    expect(block(7).textContent).toContain('Ko so vse enote zaključene');
    expect(within(block(8)).getByTestId('preview-interactr').querySelector('iframe')?.getAttribute('src')).toBe('https://player.interactr.io/p/1');
  });

  it('links the attachments by name', () => {
    show();
    expect(within(screen.getByTestId('preview-attachments')).getByRole('link', { name: 'SmPC.pdf' }).getAttribute('href')).toBe('/api/files/12');
  });
});
