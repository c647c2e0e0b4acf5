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
  /** While true, requests are recorded but not answered until `release()`. */
  holding = false;
  /** The most requests open at once (received, not yet answered). */
  maxOpen = 0;
  private open = 0;
  private held: Array<() => void> = [];
  private server: http.Server | null = null;
  url = '';
  port = 0;

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      this.open++;
      this.maxOpen = Math.max(this.maxOpen, this.open);
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const answered = this.status;
        this.received.push({ headers: req.headers, body, json: JSON.parse(body), answered });
        const answer = () => {
          this.open--;
          res.writeHead(answered, { 'content-type': 'text/plain' }).end('ok');
        };
        if (this.holding) this.held.push(answer);
        else answer();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server!.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.port}/hooks`;
    return this;
  }

  /** Answers every held request, and stops holding. */
  release(): void {
    this.holding = false;
    for (const answer of this.held.splice(0)) answer();
  }

  ofType(type: string): Received[] {
    return this.received.filter((r) => r.json.type === type);
  }

  async stop(): Promise<void> {
    this.release();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
