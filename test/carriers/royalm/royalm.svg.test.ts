import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svgSignatureToPng } from '../../../src/carriers/royalm/royalm.svg.js';

/** A solid black PNG: drawn anywhere, it would show. */
function blackPng(): Buffer {
  const png = new PNG({ width: 4, height: 4 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([0, 0, 0, 255], i);
  return PNG.sync.write(png);
}

function darkRows(png: Buffer): Set<number> {
  const image = PNG.sync.read(png);
  const rows = new Set<number>();
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const at = (y * image.width + x) * 4;
      if (image.data[at] < 128 && image.data[at + 1] < 128 && image.data[at + 2] < 128) rows.add(y);
    }
  }
  return rows;
}

describe('Royal Mail SVG signatures: nothing outside the SVG text is read', () => {
  let server: Server;
  let origin: string;
  let requests = 0;
  let directory: string;
  let inkFile: string;

  beforeAll(async () => {
    server = createServer((_request, response) => {
      requests++;
      response.writeHead(200, { 'content-type': 'image/png' }).end(blackPng());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-royalm-svg-'));
    inkFile = path.join(directory, 'ink.png');
    fs.writeFileSync(inkFile, blackPng());
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it('draws the strokes of an SVG naming images over HTTP and on disk and a web font, and fetches none of them', async () => {
    const svg = `<svg width="300" height="120">
      <style>@font-face { font-family: Remote; src: url(${origin}/font.ttf); }</style>
      <image x="0" y="0" width="100" height="100" href="${origin}/ink.png"/>
      <image x="100" y="0" width="100" height="100" xlink:href="${pathToFileURL(inkFile).href}"/>
      <image x="200" y="0" width="100" height="100" href="${inkFile}"/>
      <text x="10" y="60" font-family="Remote" font-size="40">Signed</text>
      <polyline points="10,110 290,110" style="fill:none; stroke:#000000; stroke-width:4"/>
    </svg>`;
    const png = await svgSignatureToPng(svg);
    expect(png).not.toBeNull();
    if (!png) return;
    expect(PNG.sync.read(png)).toMatchObject({ width: 300, height: 120 });
    // Only the polyline's rows are inked: no image (each would be a black square) and no text was drawn.
    expect([...darkRows(png)].sort((a, b) => a - b)).toEqual([108, 109, 110, 111]);
    expect(requests).toBe(0);
  });

  it('stops a drawing that runs past its deadline without holding up the event loop, and draws the next one', async () => {
    const endless = `<svg width="1200" height="1200"><filter id="f" x="0" y="0" width="1" height="1">
      <feTurbulence baseFrequency="0.05" numOctaves="1000000000"/></filter>
      <rect width="1200" height="1200" filter="url(#f)"/></svg>`;
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const started = Date.now();
    const drawn = await svgSignatureToPng(endless, { timeoutMs: 1_500 });
    clearInterval(ticker);
    expect(drawn).toBeNull();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(ticks).toBeGreaterThan(20);
    const next = await svgSignatureToPng('<svg width="30" height="10"><path d="M0 5L30 5" stroke="#000" stroke-width="2"/></svg>');
    expect(next && darkRows(next)).toEqual(new Set([4, 5]));
  });

  it('reads the root of a text that repeats <svg and never closes it in one pass, not in time growing with its square', async () => {
    const unclosed = '<svg'.repeat(250_000);
    const started = Date.now();
    expect(await svgSignatureToPng(unclosed, { timeoutMs: 1_500 })).toBeNull();
    // Read on this thread, a quadratic pattern took about 100 s on a megabyte of it.
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
