// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setupI18n } from '../../../lib/i18n.ts';
import { diffContent } from '../lib/content-diff.ts';
import { ContentDiffView } from './content-diff-view.tsx';

beforeAll(() => setupI18n());
afterEach(cleanup);

describe('the diff names every field in Slovenian (issue 36)', () => {
  it('labels course fields, audience parts and a quiz answer path step by step', () => {
    const quiz = (text: string) => ({
      id: 5,
      fields: { kind: 'quiz', name: 'Kviz', questions: [{ id: 'q', text: 'Koliko?', answers: [{ id: 'a', text, correct: true }] }] },
    });
    const before = { fields: { vimeoId: '1', typeformId: null, zoomUrl: null, audience: { professionIds: [1] } }, blocks: [quiz('Ena')], attachments: [] };
    const after = {
      fields: { vimeoId: '2', typeformId: 'aBc123', zoomUrl: 'https://zoom.us/j/1', interactrHtml: '<iframe></iframe>', audience: { professionIds: [1, 2] } },
      blocks: [quiz('Dve')],
      attachments: [],
    };
    render(
      <MantineProvider>
        <ContentDiffView diff={diffContent(before, after)} firstVersion={false} />
      </MantineProvider>,
    );
    const names = screen.getAllByTestId('field-change').map((row) => row.querySelector('p')?.textContent);
    expect(names).toEqual([
      'Video Vimeo',
      'Obrazec Typeform',
      'Povezava Zoom',
      'Interaktivni video Interactr',
      'Ciljna skupina › Poklici',
      'Vprašanja › 1. › Odgovori › 1. › Besedilo',
    ]);
  });
});
