// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { articleHasExternalMedia, safeArticleHtml, safeInteractrHtml } from './safe-html.ts';

describe('HTML of a version under review, made safe again in the browser (issue 36)', () => {
  it('keeps the formatting, links and images an article may have', () => {
    expect(safeArticleHtml('<h3>Odmerjanje</h3><p><strong>Dvakrat</strong> na dan, <a href="https://sukl.si/x">SmPC</a>.</p><ul><li>ena</li></ul>')).toBe(
      '<h3>Odmerjanje</h3><p><strong>Dvakrat</strong> na dan, <a href="https://sukl.si/x" target="_blank" rel="noopener noreferrer">SmPC</a>.</p><ul><li>ena</li></ul>',
    );
    expect(safeArticleHtml('<img src="/api/files/4" alt="Graf" width="200">')).toBe('<img src="/api/files/4" alt="Graf" width="200">');
  });

  it('drops scripts, handlers, frames, styles and dangerous addresses', () => {
    const html = safeArticleHtml(
      '<p onclick="steal()">Besedilo<script>steal()</script><style>p{}</style></p><img src="x" onerror="steal()"><iframe src="https://evil.example"></iframe>' +
        '<a href="javascript:steal()">a</a><a href="java&#x09;script:steal()">b</a><a href=" javascript:steal()">c</a><a href="//evil.example">d</a>' +
        '<img src="data:text/html;base64,PHNjcmlwdD4="><div style="x">div</div><form action="x"><input name="p">polje</form><svg><script>steal()</script></svg>',
    );
    expect(html).not.toMatch(/script|onclick|onerror|iframe|style|evil|svg|form|input|data:text/i);
    expect(html).toContain('<p>Besedilo</p>');
    expect(html).toContain('<a target="_blank" rel="noopener noreferrer">a</a>');
    expect(html).toContain('div');
    expect(html).toContain('polje');
  });

  it('keeps of an Interactr embed only its iframe from Interactr', () => {
    expect(
      safeInteractrHtml(
        '<div><iframe src="https://player.interactr.io/p/1" width="640" onload="x()"></iframe><script>x()</script><iframe src="https://evil.example/"></iframe></div>',
      ),
    ).toBe('<iframe src="https://player.interactr.io/p/1" width="640"></iframe>');
    expect(safeInteractrHtml('<iframe src="http://player.interactr.io/p/1"></iframe>')).toBe('');
  });

  it('tells whether an article shows an image from outside the platform', () => {
    expect(articleHasExternalMedia('<p><img src="https://cdn.example/x.png"></p>')).toBe(true);
    expect(articleHasExternalMedia('<p><img src="/api/files/3"></p>')).toBe(false);
  });
});
