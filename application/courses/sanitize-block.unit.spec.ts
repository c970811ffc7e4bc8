import { describe, expect, it } from 'vitest';
import { sanitizeArticle } from './sanitize-block.ts';

describe('article HTML', () => {
  it('keeps formatting and drops scripts, handlers, styles, frames and unsafe links', () => {
    const dirty =
      '<p onclick="x()">Dobro <strong>jutro</strong><script>alert(1)</script></p><iframe src="https://evil"></iframe><a href="javascript:alert(1)">klik</a><img src="x" onerror="y"><style>p{}</style>';
    expect(sanitizeArticle(dirty)).toBe('<p>Dobro <strong>jutro</strong></p><a rel="noopener noreferrer" target="_blank">klik</a><img src="x" />');
    expect(sanitizeArticle('<a href="https://zdravje.si">vir</a>')).toBe('<a href="https://zdravje.si" rel="noopener noreferrer" target="_blank">vir</a>');
  });
});
