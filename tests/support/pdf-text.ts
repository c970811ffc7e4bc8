/**
 * The text a PDF reader sees (pdf.js, the reader inside Firefox): proves that a generated PDF opens
 * and that its words, with č, š and ž, come out as written and not as boxes or missing glyphs.
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export const pdfText = async (bytes: Uint8Array): Promise<string> => {
  const document = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const content = await (await document.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await document.destroy();
  return pages.join('\n').replace(/\s+/g, ' ');
};
