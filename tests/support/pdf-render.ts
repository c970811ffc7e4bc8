/**
 * A PDF page drawn as a picture, to see that a generated PDF shows something where a reader looks
 * (charts, figures), not only that its text can be extracted (pdf-text.ts). Two renderers:
 * poppler's `pdftoppm` (Debian's poppler-utils) when the machine has it, and pdf.js with its Node
 * canvas (@napi-rs/canvas, installed with pdfjs-dist by `npm ci`), which every machine that ran
 * `npm ci` has. A test renders with each one available.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export type PdfRenderer = 'pdftoppm' | 'pdf.js';

const hasPdftoppm = (() => {
  let found: boolean | null = null;
  return () => {
    found ??= spawnSync('pdftoppm', ['-v'], { stdio: 'ignore' }).status === 0;
    return found;
  };
})();

/** The renderers this machine has: pdf.js always, pdftoppm when poppler-utils is installed. */
export const pdfRenderers = (): PdfRenderer[] => (hasPdftoppm() ? ['pdftoppm', 'pdf.js'] : ['pdf.js']);

const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

const withPdftoppm = async (pdf: Uint8Array, page: number, dpi: number) => {
  const dir = await mkdtemp(join(tmpdir(), 'pdf-render-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    await promisify(execFile)('pdftoppm', [
      '-png',
      '-r',
      String(dpi),
      '-f',
      String(page),
      '-l',
      String(page),
      '-singlefile',
      join(dir, 'in.pdf'),
      join(dir, 'out'),
    ]);
    return await readFile(join(dir, 'out.png'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

type NodeCanvas = { toBuffer(type: 'image/png'): Buffer };
type CanvasFactory = { create(width: number, height: number): { canvas: NodeCanvas; context: unknown } };

const withPdfJs = async (pdf: Uint8Array, page: number, dpi: number) => {
  const document = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, standardFontDataUrl: STANDARD_FONTS }).promise;
  try {
    const p = await document.getPage(page);
    const viewport = p.getViewport({ scale: dpi / 72 });
    const factory = (document as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
    const { canvas, context } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
    await p.render({ canvasContext: context, canvas, viewport } as unknown as Parameters<typeof p.render>[0]).promise;
    return canvas.toBuffer('image/png');
  } finally {
    await document.destroy();
  }
};

/** Page `page` (1-based) of the PDF as a PNG. */
export const renderPdfPage = async (pdf: Uint8Array, renderer: PdfRenderer, page = 1, dpi = 60): Promise<Buffer> =>
  renderer === 'pdftoppm' ? withPdftoppm(pdf, page, dpi) : withPdfJs(pdf, page, dpi);

/**
 * How much of a PNG is drawn on: the share of pixels that are not (near) white, and the share in
 * strong colour (a chart's bars rather than text). Decoded by the same Node canvas.
 */
export const pngInk = async (png: Buffer) => {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, image.width, image.height).data;
  let ink = 0;
  let colour = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    const [r, g, b] = [pixels[i] as number, pixels[i + 1] as number, pixels[i + 2] as number];
    if (r < 235 || g < 235 || b < 235) ink++;
    if (Math.max(r, g, b) - Math.min(r, g, b) > 60) colour++;
  }
  const total = pixels.length / 4;
  return { width: image.width, height: image.height, ink: ink / total, colour: colour / total };
};
