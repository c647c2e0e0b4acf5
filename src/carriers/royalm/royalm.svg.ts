import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { SvgDrawTask } from './royalm.svg.worker.js';

/**
 * Royal Mail's signatures as SVG (its documented example is one `<polyline>` of pen strokes) drawn as a PNG,
 * since a proof of delivery is stored as PNG, JPEG, GIF or PDF. Drawn by resvg (`@resvg/resvg-wasm`), which reads
 * the SVG as text: no script is run and nothing is fetched or read from disk, neither images nor fonts
 * (`royalm.svg.worker.ts` says why). Bounded: oversized text is refused before drawing, the image is scaled down
 * to MAX_SIDE, and the drawing runs on a thread of its own that is stopped at DRAW_TIMEOUT_MS — some SVGs cost
 * far more than their size (a filter of a million octaves, thousands of full-size layers), and a thread can be
 * stopped where a call into WebAssembly cannot. Never throws: null when nothing can be drawn.
 */

/** The longest side of the image drawn; a larger signature is scaled down to it. */
const MAX_SIDE = 1_200;
/** SVG text read at most (a pen trace is a few kilobytes). */
const MAX_TEXT = 1_048_576;
/** Time one drawing may take, waiting for the thread included; a pen trace takes milliseconds. */
const DRAW_TIMEOUT_MS = 5_000;
/** Drawings waiting for the thread; more are refused at once. */
const MAX_WAITING = 16;

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
const XLINK_NAMESPACE = 'http://www.w3.org/1999/xlink';

/**
 * The worker module: the compiled `.js` beside this file when running from dist/, otherwise the `.ts` source
 * (vitest, tsx), which the thread then loads through tsx.
 */
function workerModule(): { filename: string; execArgv: string[] } {
  const compiled = new URL('./royalm.svg.worker.js', import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return { filename: compiled.href, execArgv: [] };
  return { filename: new URL('./royalm.svg.worker.ts', import.meta.url).href, execArgv: ['--import', 'tsx'] };
}

let pool: Piscina<SvgDrawTask, Uint8Array | null> | undefined;

/** One drawing thread for the process, started on first use and stopped after a minute without work. */
function drawingThread(): Piscina<SvgDrawTask, Uint8Array | null> {
  pool ??= new Piscina({
    ...workerModule(),
    minThreads: 0,
    maxThreads: 1,
    concurrentTasksPerWorker: 1,
    idleTimeout: 60_000,
    maxQueue: MAX_WAITING,
  });
  return pool;
}

/**
 * Royal Mail's documented example (`<svg height="120" width="300">…`) declares no namespace, without which an XML
 * reader sees no SVG at all; the root element is given SVG's namespace (and XLink's, for `xlink:href`) when it
 * lacks them.
 */
function withNamespaces(svg: string): string {
  // Found in one pass (a pattern over `<svg[^>]*>` is quadratic on text that repeats `<svg` and never closes it).
  const start = svg.search(/<svg\b/i);
  if (start < 0) return svg;
  const end = svg.indexOf('>', start);
  const attributes = svg.slice(start + '<svg'.length, end < 0 ? svg.length : end);
  const missing = [
    /\sxmlns\s*=/.test(attributes) ? '' : ` xmlns="${SVG_NAMESPACE}"`,
    /\sxmlns:xlink\s*=/.test(attributes) ? '' : ` xmlns:xlink="${XLINK_NAMESPACE}"`,
  ].join('');
  const at = start + '<svg'.length;
  return `${svg.slice(0, at)}${missing}${svg.slice(at)}`;
}

/** The SVG drawn on white as PNG bytes; null when it draws nothing, is out of bounds or took too long. */
export async function svgSignatureToPng(svg: string, options: { timeoutMs?: number } = {}): Promise<Buffer | null> {
  if (svg.length > MAX_TEXT || !/<svg\b/i.test(svg)) return null;
  try {
    const png = await drawingThread().run(
      { svg: withNamespaces(svg), maxSide: MAX_SIDE },
      // Aborting a running drawing stops its thread; the next drawing starts a new one.
      { signal: AbortSignal.timeout(options.timeoutMs ?? DRAW_TIMEOUT_MS) },
    );
    // Structured clone turns the thread's bytes into a plain Uint8Array.
    return png ? Buffer.from(png.buffer, png.byteOffset, png.byteLength) : null;
  } catch {
    // Timed out, too many waiting, or the thread failed to start: nothing drawn this time.
    return null;
  }
}
