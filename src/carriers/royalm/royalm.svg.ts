import { PNG } from 'pngjs';

/**
 * Royal Mail's signatures as SVG (its documented example is one `<polyline>` of pen strokes) drawn as a PNG,
 * since a proof of delivery is stored as PNG, JPEG, GIF or PDF. Only strokes are drawn: `polyline`, `polygon`,
 * `line` and `path` (curves and arcs as straight lines to their end points, which is close enough for a pen
 * trace). Nothing of the SVG is run or fetched; it is read as text. Pure, and never throws: null when there is
 * nothing to draw.
 */

/** The longest side of the image drawn; a larger signature is scaled down to it. */
const MAX_SIDE = 1_200;
/** At most this much drawing (stamped pixels) per signature: a pathological SVG costs no more. */
const MAX_WORK = 20_000_000;
/** SVG text read at most (a pen trace is a few kilobytes). */
const MAX_TEXT = 1_048_576;

type Point = [number, number];
interface Stroke {
  points: Point[];
  closed: boolean;
  width: number;
}

const NUMBER = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g;

function attributesOf(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attributes[match[1].toLowerCase()] = match[2] ?? match[3];
  return attributes;
}

function numbersOf(text: string | undefined): number[] {
  return (text?.match(NUMBER) ?? []).map(Number).filter(Number.isFinite);
}

function strokeWidthOf(attributes: Record<string, string>): number {
  const styled = /stroke-width\s*:\s*([-+]?[\d.]+)/.exec(attributes.style ?? '')?.[1];
  const width = Number(styled ?? attributes['stroke-width'] ?? 2);
  return Number.isFinite(width) && width > 0 ? Math.min(width, 50) : 2;
}

function pairs(values: number[]): Point[] {
  const points: Point[] = [];
  for (let i = 0; i + 1 < values.length; i += 2) points.push([values[i], values[i + 1]]);
  return points;
}

/** A path's outline as polylines: moves start a new one; curves and arcs go straight to their end points. */
function pathStrokes(d: string, width: number): Stroke[] {
  const strokes: Stroke[] = [];
  let current: Point[] = [];
  let at: Point = [0, 0];
  let start: Point = [0, 0];
  const flush = (closed: boolean) => {
    if (current.length > 1) strokes.push({ points: current, closed, width });
    current = [];
  };
  // How many numbers each command takes, and which of them is the end point.
  const arity: Record<string, number> = { M: 2, L: 2, H: 1, V: 1, C: 6, S: 4, Q: 4, T: 2, A: 7 };
  for (const [, command, args] of d.matchAll(/([MmLlHhVvCcSsQqTtAaZz])([^MmLlHhVvCcSsQqTtAaZz]*)/g)) {
    const upper = command.toUpperCase();
    const relative = command !== upper;
    if (upper === 'Z') {
      if (current.length > 0) current.push([...start]);
      flush(false);
      at = [...start];
      continue;
    }
    const values = numbersOf(args);
    const size = arity[upper];
    for (let i = 0; i + size <= values.length; i += size) {
      const group = values.slice(i, i + size);
      let next: Point;
      if (upper === 'H') next = [relative ? at[0] + group[0] : group[0], at[1]];
      else if (upper === 'V') next = [at[0], relative ? at[1] + group[0] : group[0]];
      else {
        const [x, y] = group.slice(-2);
        next = relative ? [at[0] + x, at[1] + y] : [x, y];
      }
      // A move starts a new stroke; the pairs after it are lines (SVG's rule).
      if (upper === 'M' && i === 0) {
        flush(false);
        start = next;
        current = [next];
      } else {
        if (current.length === 0) current = [[...at]];
        current.push(next);
      }
      at = next;
    }
  }
  flush(false);
  return strokes;
}

function strokesOf(svg: string): Stroke[] {
  const strokes: Stroke[] = [];
  for (const [, name, rest] of svg.matchAll(/<(polyline|polygon|line|path)\b([^>]*)>/gi)) {
    const attributes = attributesOf(rest);
    const width = strokeWidthOf(attributes);
    const kind = name.toLowerCase();
    if (kind === 'path') strokes.push(...pathStrokes(attributes.d ?? '', width));
    else if (kind === 'line') {
      const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((n) => Number(attributes[n] ?? 0));
      if ([x1, y1, x2, y2].every(Number.isFinite))
        strokes.push({
          points: [
            [x1, y1],
            [x2, y2],
          ],
          closed: false,
          width,
        });
    } else {
      const points = pairs(numbersOf(attributes.points));
      if (points.length > 0) strokes.push({ points, closed: kind === 'polygon', width });
    }
  }
  return strokes;
}

/** The drawing's size and the scale from SVG units to pixels. */
function canvasOf(svg: string, strokes: Stroke[]): { width: number; height: number; scale: number; dx: number; dy: number } {
  const root = attributesOf(/<svg\b([^>]*)>/i.exec(svg)?.[1] ?? '');
  const box = numbersOf(root.viewbox);
  let [minX, minY, boxW, boxH] = box.length === 4 && box[2] > 0 && box[3] > 0 ? box : [0, 0, Number.NaN, Number.NaN];
  const declaredW = Number.parseFloat(root.width ?? '');
  const declaredH = Number.parseFloat(root.height ?? '');
  if (!(boxW > 0 && boxH > 0)) {
    const all = strokes.flatMap((s) => s.points);
    const extentW = Math.max(1, ...all.map((p) => p[0] + 2));
    const extentH = Math.max(1, ...all.map((p) => p[1] + 2));
    [minX, minY] = [0, 0];
    boxW = declaredW > 0 ? declaredW : extentW;
    boxH = declaredH > 0 ? declaredH : extentH;
  }
  const outW = declaredW > 0 ? declaredW : boxW;
  const outH = declaredH > 0 ? declaredH : boxH;
  const fit = Math.min(1, MAX_SIDE / Math.max(outW, outH));
  const width = Math.max(1, Math.round(outW * fit));
  const height = Math.max(1, Math.round(outH * fit));
  return { width, height, scale: (width / boxW + height / boxH) / 2, dx: -minX, dy: -minY };
}

/** The SVG's strokes in black on white as PNG bytes; null when it holds none or is out of bounds. */
export function svgSignatureToPng(svg: string): Buffer | null {
  if (svg.length > MAX_TEXT || !/<svg\b/i.test(svg)) return null;
  const strokes = strokesOf(svg);
  if (strokes.length === 0) return null;
  const { width, height, scale, dx, dy } = canvasOf(svg, strokes);
  const png = new PNG({ width, height });
  png.data.fill(255);
  let work = 0;
  const stamp = (cx: number, cy: number, radius: number) => {
    const r = Math.ceil(radius);
    for (let y = Math.max(0, Math.floor(cy - r)); y <= Math.min(height - 1, Math.ceil(cy + r)); y++) {
      for (let x = Math.max(0, Math.floor(cx - r)); x <= Math.min(width - 1, Math.ceil(cx + r)); x++) {
        work++;
        if ((x - cx) ** 2 + (y - cy) ** 2 > radius * radius) continue;
        const at = (y * width + x) * 4;
        png.data[at] = 0;
        png.data[at + 1] = 0;
        png.data[at + 2] = 0;
      }
    }
  };
  for (const stroke of strokes) {
    const radius = Math.min(25, Math.max(0.6, (stroke.width * scale) / 2));
    const points = stroke.points.map(([x, y]): Point => [(x + dx) * scale, (y + dy) * scale]);
    if (stroke.closed) points.push(points[0]);
    if (points.length === 1) stamp(points[0][0], points[0][1], radius);
    for (let i = 1; i < points.length; i++) {
      const [x0, y0] = points[i - 1];
      const [x1, y1] = points[i];
      const steps = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0) / Math.max(0.5, radius / 2)));
      // Points far outside the drawing (or not numbers at all) would be stepped through for nothing.
      if (!Number.isFinite(steps) || work + steps > MAX_WORK) return null;
      for (let s = 0; s <= steps; s++) {
        work++;
        stamp(x0 + ((x1 - x0) * s) / steps, y0 + ((y1 - y0) * s) / steps, radius);
        if (work > MAX_WORK) return null;
      }
    }
  }
  return PNG.sync.write(png);
}
