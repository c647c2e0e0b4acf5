import type { LabelLayout } from './label-layout.js';

/** Hex escapes (after ^FH) for the characters ZPL would read as commands or as the escape itself. */
function escapeFieldData(value: string): string {
  return value.replace(/[\\^~]/g, (char) => `\\${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The layout as ZPL II for 203 dpi printers: one ^XA…^XZ format, UTF-8 field data (^CI28), text in the
 * scalable font 0 (bold drawn twice, two dots apart), ^BC Code 128 (automatic subsets, as compact as the
 * symbol drawn in the other formats) and ^BX DataMatrix, both encoded by the printer.
 */
export function renderLabelZplText(layout: LabelLayout): string {
  const out = ['^XA', '^CI28', `^PW${layout.widthDots}`, `^LL${layout.heightDots}`, '^LH0,0'];
  for (const element of layout.elements) {
    switch (element.kind) {
      case 'text': {
        const field = `^A0N,${element.size},${element.size}^FH\\^FD${escapeFieldData(element.text)}^FS`;
        out.push(`^FO${element.x},${element.y}${field}`);
        if (element.bold) out.push(`^FO${element.x + 2},${element.y}${field}`);
        break;
      }
      case 'rule':
        out.push(`^FO${element.x},${element.y}^GB${element.width},${element.height},${Math.min(element.width, element.height)}^FS`);
        break;
      case 'code128':
        out.push(
          `^FO${element.x},${element.y}^BY${element.moduleWidth}^BCN,${element.height},N,N,N,A^FH\\^FD${escapeFieldData(element.data)}^FS`,
        );
        break;
      case 'datamatrix':
        out.push(`^FO${element.x},${element.y}^BXN,${element.moduleSize},200^FH\\^FD${escapeFieldData(element.data)}^FS`);
        break;
    }
  }
  out.push('^XZ');
  return `${out.join('\n')}\n`;
}

/** {@link renderLabelZplText} as UTF-8 bytes. */
export function renderLabelZpl(layout: LabelLayout): Uint8Array {
  return Buffer.from(renderLabelZplText(layout), 'utf8');
}
