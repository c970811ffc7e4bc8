/**
 * A course cover made in the browser where none was uploaded (or the uploaded one does not load):
 * a gradient and a pattern chosen by a hash of the title, the course type's name and the title's
 * initials (issue 33). The same title and type always give the same picture, so a course keeps
 * its look on every page and in every browser without storing anything.
 *
 * The text is white on colours dark enough for 4.5:1 (WCAG 1.4.3) at the gradient's lighter end;
 * the pattern only darkens. The picture is decorative: the card shows the title and type as text.
 */

export type CoverPattern = 'circles' | 'stripes' | 'dots';
export type CoverDesign = {
  /** The gradient's ends, `#rrggbb`; `from` is the lighter one. */
  from: string;
  to: string;
  /** The colour of every text on the cover. */
  text: string;
  angle: number;
  pattern: CoverPattern;
  initials: string;
};

const PATTERNS: readonly CoverPattern[] = ['circles', 'stripes', 'dots'];
/** The least contrast of the cover's text with the gradient (WCAG AA for normal text). */
export const COVER_MIN_CONTRAST = 4.5;
const TEXT = '#ffffff';

/** FNV-1a over the title's code points: cheap, stable across browsers, well spread for short texts. */
const hash = (text: string) => {
  let h = 0x811c9dc5;
  for (const ch of text) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
};

const hex = (n: number) =>
  Math.round(Math.min(255, Math.max(0, n)))
    .toString(16)
    .padStart(2, '0');

/** HSL (hue in degrees, saturation and lightness 0..1) as `#rrggbb`. */
export const hslToHex = (hue: number, saturation: number, lightness: number) => {
  const a = saturation * Math.min(lightness, 1 - lightness);
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    return (lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))) * 255;
  };
  return `#${hex(channel(0))}${hex(channel(8))}${hex(channel(4))}`;
};

/** WCAG 2 relative luminance of `#rrggbb`. */
export const luminance = (colour: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(colour.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

/** WCAG 2 contrast ratio of two `#rrggbb` colours. */
export const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

/**
 * The lightest shade of the hue that still carries white text: yellows and greens are light at the
 * lightness where blues are dark, so the lightness is lowered per hue until the contrast holds.
 */
const shade = (hue: number, saturation: number) => {
  for (let lightness = 0.42; lightness > 0.05; lightness -= 0.01) {
    const colour = hslToHex(hue, saturation, lightness);
    if (contrast(colour, TEXT) >= COVER_MIN_CONTRAST + 0.1) return { colour, lightness };
  }
  return { colour: hslToHex(hue, saturation, 0.05), lightness: 0.05 };
};

/** The first letters of the title's first two words (words of three letters or more when there are any). */
export const coverInitials = (title: string) => {
  const words = title.match(/\p{L}[\p{L}\p{N}]*/gu) ?? [];
  const long = words.filter((w) => [...w].length > 2);
  const chosen = (long.length > 0 ? long : words).slice(0, 2);
  const initials = chosen.map((w) => [...w][0] ?? '').join('');
  return initials === '' ? '·' : initials.toLocaleUpperCase('sl');
};

/** The cover's look for a title: the same title always gives the same design. */
export const coverDesign = (title: string): CoverDesign => {
  const h = hash(title.trim().toLocaleLowerCase('sl'));
  const hue = h % 360;
  const from = shade(hue, 0.62);
  // The darker end: a neighbouring hue at its own lightest readable shade, a little darker still.
  const toHue = (hue + 28 + ((h >>> 9) % 24)) % 360;
  const to = hslToHex(toHue, 0.68, Math.max(0.05, shade(toHue, 0.68).lightness - 0.08));
  return {
    from: from.colour,
    to,
    text: TEXT,
    angle: 20 + ((h >>> 13) % 5) * 25,
    pattern: PATTERNS[(h >>> 17) % PATTERNS.length] ?? 'circles',
    initials: coverInitials(title),
  };
};

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

/** Darkening shapes over the gradient (black at low opacity: the text's contrast only grows). */
const patternShapes = (pattern: CoverPattern) => {
  if (pattern === 'stripes')
    return Array.from({ length: 8 }, (_, i) => `<path d="M${i * 70 - 40} 160 L${i * 70 + 40} 0 L${i * 70 + 72} 0 L${i * 70 - 8} 160 Z"/>`).join('');
  if (pattern === 'dots')
    return Array.from({ length: 40 }, (_, i) => `<circle cx="${190 + (i % 8) * 28}" cy="${20 + Math.floor(i / 8) * 28}" r="6"/>`).join('');
  return '<circle cx="340" cy="30" r="110"/><circle cx="400" cy="150" r="80"/><circle cx="250" cy="170" r="50"/>';
};

/**
 * The cover as SVG text, 400×160: about the shape the cards show it in (150 px high, 360 to 400 wide),
 * so little is cut off; the type's name at the top, the initials below.
 */
export const coverSvg = (design: CoverDesign, typeLabel: string) => {
  const label = escapeXml(typeLabel);
  // Wide enough for the label at 15 px (about 0.6 em a character) with padding; capped at the picture's width.
  const labelWidth = Math.min(368, Math.round([...typeLabel].length * 8.6 + 24));
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 160" preserveAspectRatio="xMinYMid slice">',
    `<defs><linearGradient id="g" gradientTransform="rotate(${design.angle} 0.5 0.5)">`,
    `<stop offset="0" stop-color="${design.from}"/><stop offset="1" stop-color="${design.to}"/></linearGradient></defs>`,
    '<rect width="400" height="160" fill="url(#g)"/>',
    `<g fill="#000000" fill-opacity="0.16">${patternShapes(design.pattern)}</g>`,
    `<rect x="16" y="16" rx="14" width="${labelWidth}" height="30" fill="#000000" fill-opacity="0.3"/>`,
    `<text x="28" y="36" font-family="system-ui, sans-serif" font-size="15" font-weight="600" fill="${design.text}">${label}</text>`,
    `<text x="24" y="138" font-family="system-ui, sans-serif" font-size="76" font-weight="700" fill="${design.text}">${escapeXml(design.initials)}</text>`,
    '</svg>',
  ].join('');
};

/** The generated cover as an image address (`data:` URL) for an `<img>`. */
export const generatedCoverUrl = (title: string, typeLabel: string) =>
  `data:image/svg+xml;charset=utf-8,${encodeURIComponent(coverSvg(coverDesign(title), typeLabel))}`;
