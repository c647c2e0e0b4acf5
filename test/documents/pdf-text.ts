import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const standardFontDataUrl = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** Parses a PDF and returns its page sizes (points) and the text of every page. */
export async function readPdf(bytes: Uint8Array): Promise<{ pages: Array<{ width: number; height: number; text: string[] }> }> {
  const document = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false, standardFontDataUrl })
    .promise;
  try {
    const pages = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const [, , width, height] = page.view;
      const content = await page.getTextContent();
      const text = content.items.map((item) => ('str' in item ? item.str : '')).filter((value) => value.trim() !== '');
      pages.push({ width, height, text });
    }
    return { pages };
  } finally {
    await document.destroy();
  }
}

/** Every text item of every page, joined: enough to ask whether a value is printed. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const { pages } = await readPdf(new Uint8Array(bytes));
  return pages.flatMap((page) => page.text).join('\n');
}
