import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A message the local Twilio accepted. */
export interface TwilioSentMessage {
  sid: string;
  accountSid: string;
  to: string;
  from: string | null;
  body: string;
  messagingServiceSid: string | null;
  statusCallback: string | null;
  /** When it arrived (ms since the epoch). */
  at: number;
}

/** A request it received, accepted or not. */
export interface TwilioReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  params: Record<string, string>;
}

export interface TwilioServerOptions {
  accountSid?: string;
  authToken?: string;
}

/** Twilio's test numbers for `To` (twilio.com/docs/iam/test-credentials), answered with their errors. */
const MAGIC_TO: Record<string, { code: number; message: string }> = {
  '+15005550001': { code: 21211, message: "The 'To' number +15005550001 is not a valid phone number." },
  '+15005550002': { code: 21612, message: "The 'To' phone number: +15005550002, is not currently reachable using the 'From' phone number" },
  '+15005550003': {
    code: 21408,
    message: "Permission to send an SMS has not been enabled for the region indicated by the 'To' number: +15005550003.",
  },
  '+15005550004': { code: 21610, message: 'Attempt to send to unsubscribed recipient' },
  '+15005550009': { code: 21614, message: "'To' number is not a valid mobile number" },
};

/**
 * A local HTTP server speaking Twilio's Messages API (`POST /2010-04-01/Accounts/{sid}/Messages.json`) for
 * tests, on 127.0.0.1:0. It checks HTTP Basic credentials, reads the form body, records what it accepts and
 * answers like Twilio: 201 with the message resource, or Twilio's error JSON (`code`, `message`,
 * `more_info`, `status`). Twilio's magic `To` numbers fail with their documented codes; `failNext` and
 * `hangNext` script rate limits, server errors and silence.
 */
export class TwilioServer {
  readonly accountSid: string;
  authToken: string;
  readonly messages: TwilioSentMessage[] = [];
  readonly requests: TwilioReceivedRequest[] = [];
  url = '';
  private readonly failures: Array<{ status: number; code?: number; retryAfter?: string }> = [];
  private hangs = 0;
  private readonly server: http.Server;
  private readonly sockets = new Set<Socket>();

  constructor(options: TwilioServerOptions = {}) {
    this.accountSid = options.accountSid ?? `AC${randomBytes(16).toString('hex')}`;
    this.authToken = options.authToken ?? randomBytes(16).toString('hex');
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const reply = this.handle(req, Buffer.concat(chunks).toString('utf8'));
        if (!reply) return; // left hanging on purpose
        const text = JSON.stringify(reply.body);
        res.writeHead(reply.status, {
          ...reply.headers,
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(text),
        });
        res.end(text);
      });
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  /** Starts a server; `url` is then its base URL (for `WAYBILL_SMS_TWILIO_BASE_URL`). */
  static async start(options: TwilioServerOptions = {}): Promise<TwilioServer> {
    const server = new TwilioServer(options);
    await new Promise<void>((resolve) => server.server.listen(0, '127.0.0.1', resolve));
    server.url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    return server;
  }

  /**
   * The next `count` requests are answered with `status`: 429 as Twilio error 20429 with `Retry-After`
   * (when given), 5xx as error 20500; `code` overrides the Twilio code (e.g. 14107).
   */
  failNext(count: number, status: 429 | 500 | 502 | 503, options: { retryAfter?: number | string; code?: number } = {}): this {
    for (let i = 0; i < count; i++) {
      this.failures.push({
        status,
        code: options.code,
        retryAfter: options.retryAfter === undefined ? undefined : String(options.retryAfter),
      });
    }
    return this;
  }

  /** The next `count` requests are read and never answered (for timeouts). */
  hangNext(count = 1): this {
    this.hangs += count;
    return this;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, raw: string): Reply | null {
    const path = (req.url ?? '/').split('?')[0];
    // Twilio reads form fields only; another body type leaves them all missing.
    const form = String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const params: Record<string, string> = form ? Object.fromEntries(new URLSearchParams(raw)) : {};
    this.requests.push({ method: req.method ?? '', path, headers: req.headers, params });

    if (this.hangs > 0) {
      this.hangs--;
      return null;
    }
    if (!this.authorized(req.headers.authorization)) {
      return { ...error(401, 20003, 'Authenticate'), headers: { 'www-authenticate': 'Basic realm="Twilio API"' } };
    }
    const failure = this.failures.shift();
    if (failure) {
      const code = failure.code ?? (failure.status === 429 ? 20429 : 20500);
      const reply = error(failure.status, code, failure.status === 429 ? 'Too Many Requests' : 'An internal server error has occurred');
      return failure.retryAfter === undefined ? reply : { ...reply, headers: { 'retry-after': failure.retryAfter } };
    }
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(path);
    if (!match || req.method !== 'POST') return error(404, 20404, `The requested resource ${path} was not found`);
    if (match[1] !== this.accountSid) return error(403, 20003, 'Authenticate');
    return this.create(params);
  }

  private create(params: Record<string, string>): Reply {
    const to = params.To ?? '';
    const from = params.From || null;
    const messagingServiceSid = params.MessagingServiceSid || null;
    const body = params.Body ?? '';
    if (!to) return error(400, 21604, "A 'To' phone number is required.");
    if (!from && !messagingServiceSid) return error(400, 21603, "A 'From' phone number is required.");
    if (!body) return error(400, 21602, 'Message body is required.');
    if (body.length > 1600) return error(400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
    const magic = MAGIC_TO[to];
    if (magic) return error(400, magic.code, magic.message);
    if (!/^\+[1-9]\d{6,14}$/.test(to)) return error(400, 21211, `The 'To' number ${to} is not a valid phone number.`);

    const sid = `SM${randomBytes(16).toString('hex')}`;
    const at = Date.now();
    this.messages.push({
      sid,
      accountSid: this.accountSid,
      to,
      from,
      body,
      messagingServiceSid,
      statusCallback: params.StatusCallback || null,
      at,
    });
    const date = new Date(at).toUTCString().replace('GMT', '+0000');
    const uri = `/2010-04-01/Accounts/${this.accountSid}/Messages/${sid}.json`;
    return {
      status: 201,
      body: {
        account_sid: this.accountSid,
        api_version: '2010-04-01',
        body,
        date_created: date,
        date_sent: null,
        date_updated: date,
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from,
        messaging_service_sid: messagingServiceSid,
        num_media: '0',
        num_segments: String(Math.max(1, Math.ceil(body.length / 153))),
        price: null,
        price_unit: 'USD',
        sid,
        // With a Messaging Service Twilio first answers `accepted` (the service has yet to pick a sender).
        status: messagingServiceSid ? 'accepted' : 'queued',
        subresource_uris: { media: uri.replace('.json', '/Media.json') },
        to,
        uri,
      },
    };
  }

  private authorized(header: string | undefined): boolean {
    const match = /^Basic\s+(.+)$/i.exec(header ?? '');
    if (!match) return false;
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    return decoded === `${this.accountSid}:${this.authToken}`;
  }
}

/** An answer: a status, extra headers, and a body sent as JSON. */
interface Reply {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** Twilio's error JSON. */
function error(status: number, code: number, message: string): Reply {
  return { status, body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status } };
}

/**
 * `X-Twilio-Signature` for an inbound request, as Twilio computes it: HMAC-SHA1 with the Auth Token over the
 * URL followed by the form fields sorted by name (name then value, no separators), base64.
 */
export function signInbound(url: string, params: Record<string, string>, authToken: string): string {
  let data = url;
  for (const name of Object.keys(params).sort()) data += name + params[name];
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}
