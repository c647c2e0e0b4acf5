import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
  /** The status this receiver answered with. */
  answered: number;
}

/** A real HTTP server on loopback that records what it receives and answers with a chosen status. */
export class Receiver {
  readonly received: Received[] = [];
  status = 200;
  private server: http.Server | null = null;
  url = '';
  port = 0;

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.received.push({ headers: req.headers, body, json: JSON.parse(body), answered: this.status });
        res.writeHead(this.status, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server!.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.port}/hooks`;
    return this;
  }

  ofType(type: string): Received[] {
    return this.received.filter((r) => r.json.type === type);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
