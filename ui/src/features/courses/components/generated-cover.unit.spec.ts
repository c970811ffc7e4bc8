import { describe, expect, it } from 'vitest';
import { COVER_MIN_CONTRAST, contrast, coverDesign, coverInitials, coverSvg, generatedCoverUrl, hslToHex } from './generated-cover.ts';

/** Titles that reach every hue bucket often enough to meet the light (yellow, green) ones too. */
const titles = Array.from({ length: 600 }, (_, i) => `Izobraževanje št. ${i} o zdravilih`);

describe('generated course cover (issue 33)', () => {
  it('is the same picture for the same title and type, and another one for another title or type', () => {
    const a = generatedCoverUrl('Interakcije zdravil v lekarni', 'Certificirano izobraževanje');
    expect(generatedCoverUrl('Interakcije zdravil v lekarni', 'Certificirano izobraževanje')).toBe(a);
    expect(generatedCoverUrl('Samozdravljenje prehlada', 'Certificirano izobraževanje')).not.toBe(a);
    expect(generatedCoverUrl('Interakcije zdravil v lekarni', 'Zdravila brez recepta')).not.toBe(a);
    expect(a.startsWith('data:image/svg+xml')).toBe(true);
    expect(decodeURIComponent(a)).toContain('Certificirano izobraževanje');
  });

  it('spreads titles over many colours and every pattern', () => {
    const designs = titles.map(coverDesign);
    expect(new Set(designs.map((d) => d.from)).size).toBeGreaterThan(100);
    expect(new Set(designs.map((d) => d.pattern))).toEqual(new Set(['circles', 'stripes', 'dots']));
  });

  it('keeps its text at 4.5:1 or more against both ends of the gradient, for every title', () => {
    for (const title of titles) {
      const d = coverDesign(title);
      expect(contrast(d.text, d.from), `${title} ${d.from}`).toBeGreaterThanOrEqual(COVER_MIN_CONTRAST);
      expect(contrast(d.text, d.to), `${title} ${d.to}`).toBeGreaterThanOrEqual(COVER_MIN_CONTRAST);
    }
  });

  it('computes contrast as WCAG does', () => {
    expect(contrast('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrast('#ffffff', '#767676')).toBeCloseTo(4.54, 2);
    expect(hslToHex(0, 1, 0.5)).toBe('#ff0000');
    expect(hslToHex(120, 1, 0.25)).toBe('#008000');
  });

  it('shows the initials of the first two longer words, upper case in Slovenian', () => {
    expect(coverInitials('Interakcije zdravil v lekarni')).toBe('IZ');
    expect(coverInitials('O čiščenju in šivanju')).toBe('ČŠ');
    expect(coverInitials('Sladkorna bolezen')).toBe('SB');
    expect(coverInitials('Vse')).toBe('V');
    expect(coverInitials('A in B')).toBe('AI');
    expect(coverInitials('!!!')).toBe('·');
  });

  it('escapes the type name and title in the SVG', () => {
    const svg = coverSvg(coverDesign('<script>'), 'A & <b>');
    expect(svg).toContain('A &amp; &lt;b&gt;');
    expect(svg).not.toContain('<script>');
    expect(svg).not.toContain('<b>');
  });
});
