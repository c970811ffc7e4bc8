import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// DejaVu Sans carries č, š, ž and the rest of Slovenian (the PDF standard fonts do not have č).
const fonts = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
export const FONT_REGULAR = join(fonts, 'DejaVuSans.ttf');
export const FONT_BOLD = join(fonts, 'DejaVuSans-Bold.ttf');
export const BRAND_COLOR = '#0b6e69';
