import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the local SMTP server accepted: the envelope, the raw bytes, and the parsed mail. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  mail: ParsedMail;
}

/**
 * A real SMTP server on a local port (the `smtp-server` package) that accepts what it is sent, parses each
 * message with `mailparser`, and can refuse recipients with a chosen reply (a 550 is permanent, a 451 temporary).
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  /** Messages read while `stall` was on: their DATA was never answered (the sender saw no acceptance). */
  readonly stalled: ReceivedMail[] = [];
  /** Read each message, then never answer it: a send in flight when the sender dies. */
  stall = false;
  /** Recipient → SMTP reply code to refuse them with. */
  readonly refuse = new Map<string, number>();
  private server: SMTPServer | null = null;
  port = 0;

  async start(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      size: 10 * 1024 * 1024,
      onRcptTo: (address, _session, callback) => {
        const code = this.refuse.get(address.address.toLowerCase());
        if (code) {
          const error = Object.assign(new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: code });
          return callback(error);
        }
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', async () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const mail = await simpleParser(raw);
          if (this.stall) {
            this.stalled.push({ from: '', to: session.envelope.rcptTo.map((r) => r.address), raw, mail });
            return;
          }
          this.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            mail,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '::', resolve));
    this.port = ((this.server as unknown as { server: { address(): AddressInfo } }).server.address() as AddressInfo).port;
    return this;
  }

  /** The server's URL by host name, as an operator would configure it. */
  get url(): string {
    return `smtp://localhost:${this.port}`;
  }

  to(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.to.includes(address));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
