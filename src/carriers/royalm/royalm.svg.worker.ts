import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { initWasm, Resvg, type ResvgRenderOptions } from '@resvg/resvg-wasm';

/**
 * The thread that draws Royal Mail's SVG signatures with resvg (loaded by piscina from this file's default
 * export; `royalm.svg.ts` runs it under a deadline).
 */

/** One SVG to draw. */
export interface SvgDrawTask {
  svg: string;
  /** The longest side of the image drawn, in pixels; a larger drawing is scaled down to it. */
  maxSide: number;
}

/**
 * Nothing is loaded from outside the SVG text. resvg's WebAssembly build has no file system and no network: its
 * font database holds only font buffers passed in (none here, so text is not drawn), an `<image>` naming a file
 * cannot be read, and one naming an http(s) URL is left as a placeholder for the caller to resolve (we never
 * do). `loadSystemFonts: false` says the same for a reader of this file.
 */
const SELF_CONTAINED: ResvgRenderOptions = { font: { loadSystemFonts: false }, background: 'white' };

let ready: Promise<void> | undefined;

/** resvg's WebAssembly module, read from the installed package (never fetched) and initialised once, on first use. */
function resvgReady(): Promise<void> {
  ready ??= readFile(createRequire(import.meta.url).resolve('@resvg/resvg-wasm/index_bg.wasm')).then((wasm) => initWasm(wasm));
  // A failed start is tried again by the next drawing rather than remembered.
  ready.catch(() => {
    ready = undefined;
  });
  return ready;
}

/** Whether anything but the white background was drawn. */
function inked(pixels: Uint8Array): boolean {
  for (let i = 0; i < pixels.length; i += 4) {
    if (pixels[i] !== 255 || pixels[i + 1] !== 255 || pixels[i + 2] !== 255) return true;
  }
  return false;
}

/** The SVG drawn on white as PNG bytes, at most `maxSide` pixels on its longest side; null when it draws nothing or cannot be read. */
export default async function drawSvg(task: SvgDrawTask): Promise<Uint8Array | null> {
  await resvgReady();
  const made: { free(): void }[] = [];
  try {
    let drawing = new Resvg(task.svg, SELF_CONTAINED);
    made.push(drawing);
    const { width, height } = drawing;
    if (Math.max(width, height) > task.maxSide) {
      // The size is known only once the SVG is read; the drawing is read again, scaled to fit.
      const fitTo =
        width >= height ? ({ mode: 'width', value: task.maxSide } as const) : ({ mode: 'height', value: task.maxSide } as const);
      drawing = new Resvg(task.svg, { ...SELF_CONTAINED, fitTo });
      made.push(drawing);
    }
    const image = drawing.render();
    made.push(image);
    return inked(image.pixels) ? image.asPng() : null;
  } catch {
    // Not SVG, no root element, a size of zero: nothing to draw.
    return null;
  } finally {
    for (const object of made) object.free();
  }
}
