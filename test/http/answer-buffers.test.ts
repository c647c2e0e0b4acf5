import { EventEmitter } from 'node:events';
import http, { type ServerResponse } from 'node:http';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { AnswerBuffers } from '../../src/http/answer-buffers.js';

const response = () => new EventEmitter() as unknown as ServerResponse;
const parts = (byte: string, size: number) => [Buffer.from('['), Buffer.alloc(size - 2, byte), Buffer.from(']')];

describe('AnswerBuffers', () => {
  it('lends a buffer until its answer is written, then lends it again', () => {
    const buffers = new AnswerBuffers();
    const first = response();
    const a = buffers.join(first, parts('a', 100_000));
    expect(a.length).toBe(100_000);
    expect(a.subarray(0, 3).toString()).toBe('[aa');
    // Not written yet: a second answer gets a buffer of its own.
    const second = response();
    const b = buffers.join(second, parts('b', 100_000));
    expect(b.buffer).not.toBe(a.buffer);
    expect(a.subarray(1, 2).toString()).toBe('a');

    first.emit('finish');
    expect(buffers.waiting).toBe(131_072);
    const third = buffers.join(response(), parts('c', 70_000));
    expect(third.buffer).toBe(a.buffer);
    expect(third.length).toBe(70_000);
    expect(buffers.waiting).toBe(0);
  });

  it('never takes back the buffer of an answer cut off, nor keeps more than its bound', () => {
    const buffers = new AnswerBuffers(200_000);
    const cut = response();
    const a = buffers.join(cut, parts('a', 100_000));
    cut.emit('close');
    expect(buffers.waiting).toBe(0);
    expect(buffers.join(response(), parts('b', 100_000)).buffer).not.toBe(a.buffer);

    const done = [response(), response()];
    for (const res of done) buffers.join(res, parts('c', 100_000));
    for (const res of done) res.emit('finish');
    // Two of 128 KiB would pass the 200,000 bytes kept.
    expect(buffers.waiting).toBe(131_072);
  });

  it('joins small answers without lending anything', () => {
    const buffers = new AnswerBuffers();
    const res = response();
    expect(buffers.join(res, parts('s', 1_000)).toString()).toBe(`[${'s'.repeat(998)}]`);
    expect(res.listenerCount('finish')).toBe(0);
  });

  describe('over real sockets', () => {
    // Answers larger than the loopback socket's buffers: while its client does not read, an answer stays in the
    // middle of its write, and any answer joined meanwhile must not write over its bytes.
    const size = 24 * 1024 * 1024;
    const buffers = new AnswerBuffers(64 * 1024 * 1024);
    let byte = 0;
    const server = http.createServer((_request, res) => {
      const letter = String.fromCharCode(97 + (byte++ % 26));
      const body = buffers.join(res, parts(letter, size));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    /** Sends one request on a new connection; its answer is read only once the function returned is called. */
    const ask = (port: number) => {
      const socket = net.connect(port, 'localhost');
      socket.pause();
      socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      return () =>
        new Promise<Buffer>((resolve, reject) => {
          const chunks: Buffer[] = [];
          socket.on('data', (chunk) => chunks.push(chunk));
          socket.on('end', () => {
            const all = Buffer.concat(chunks);
            resolve(all.subarray(all.indexOf('\r\n\r\n') + 4));
          });
          socket.on('error', reject);
          socket.resume();
        });
    };

    it("keeps an answer's bytes while its client is slow and other answers are joined", async () => {
      await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
      const { port } = server.address() as net.AddressInfo;
      const slow = ask(port);
      // The slow answer is in its write once the server has joined it; then others come and go.
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (let i = 0; i < 3; i++) {
        const body = await ask(port)();
        expect(body.length).toBe(size);
        expect(body.subarray(1, 2).toString()).toBe(String.fromCharCode(98 + i));
      }
      // One buffer went back after each of the three answers written, and was lent to the next.
      expect(buffers.waiting).toBe(32 * 1024 * 1024);
      const body = await slow();
      expect(body.length).toBe(size);
      expect(body.subarray(1, size - 1).every((b) => b === 97)).toBe(true);
    });
  });
});
