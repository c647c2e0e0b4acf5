import PDFDocument from 'pdfkit';
import { PNG } from 'pngjs';
import type { CarrierServer, ReceivedRequest, ScriptedReply } from '../support/carrier-server.js';
import { schemaProblems, type UspsSchema } from './usps-labels-schema.js';
import { fixture, SETTINGS } from './usps-server.js';

/**
 * The local USPS's Payments, Labels and Locations endpoints, on the same server as tracking (one base URL, one
 * OAuth token): payment authorization, outbound and return labels, cancellation, and the Post Office locator.
 * It checks what it receives against the request schemas written from USPS's documents
 * (`usps-labels-schema.ts`) and the rules their descriptions state, records what it found wrong in `faults`,
 * keeps the labels it made (so that a cancellation finds them), and can lose the answer of the next label call
 * after making the label.
 */

/** The tests' USPS business account. */
export const ACCOUNT = { crid: '56982563', mid: '904128936', account_type: 'EPS', account_number: '1000405525' } as const;
export const BOOKING_SETTINGS = { ...SETTINGS, ...ACCOUNT } as const;

export const PAYMENT_PATH = '/payments/v3/payment-authorization';
export const LABEL_PATH = '/labels/v3/label';
export const RETURN_LABEL_PATH = '/labels/v3/return-label';
export const CANCEL_PATH = /^\/labels\/v3\/label\/[^/]+$/;
export const LOCATIONS_PATH = '/locations/v3/post-office-locations';

export interface LabelAtUsps {
  trackingNumber: string;
  isReturn: boolean;
  imageType: string;
  references: string[];
  cancelled: boolean;
  body: any;
}

const error = (status: number, code: string, title: string, detail: string, parameter?: string): ScriptedReply => ({
  status,
  body: {
    apiVersion: '3.0',
    error: {
      code: String(status),
      message: title,
      errors: [{ status: String(status), code, title, detail, ...(parameter ? { source: { parameter } } : {}) }],
    },
  },
});

/** GS1 mod-10 check digit of the digits before it. */
function checkDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return String((10 - (sum % 10)) % 10);
}

export async function pdfLabel(trackingNumber: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: [288, 432], margin: 18, info: { Title: `USPS ${trackingNumber}` } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.fontSize(14).text('USPS GROUND ADVANTAGE');
  doc.fontSize(10).text(`USPS TRACKING # ${trackingNumber}`);
  doc.end();
  return done;
}

export function pngLabel(trackingNumber: string): Buffer {
  const png = new PNG({ width: 8, height: 12 });
  const shade = Number(trackingNumber.slice(-2)) % 256;
  for (let i = 0; i < png.data.length; i += 4) png.data.set([shade, 0, 255 - shade, 255], i);
  return PNG.sync.write(png);
}

export function zplLabel(trackingNumber: string): string {
  return `^XA^FO40,40^A0N,40,40^FDUSPS TRACKING # ${trackingNumber}^FS^XZ`;
}

export class UspsLabelRoutes {
  readonly labels: LabelAtUsps[] = [];
  readonly faults: string[] = [];
  /** Payment authorization tokens issued, in order. */
  readonly paymentTokens: string[] = [];
  /** The next label call makes the label, then its answer is broken mid-way (the client reads no answer). */
  loseNextAnswer = false;
  /** Answer labels as USPS's default multipart/form-data whatever the Accept header asks for. */
  multipart = false;
  private counter = 0;

  constructor(private readonly server: CarrierServer) {}

  static install(server: CarrierServer): UspsLabelRoutes {
    const routes = new UspsLabelRoutes(server);
    server.on('POST', PAYMENT_PATH, (request) =>
      routes.guarded(request, 'PaymentAuthorizationRequest', false, (body) => routes.authorize(body)),
    );
    server.on('POST', LABEL_PATH, (request) => routes.guarded(request, 'LabelRequest', true, (body) => routes.label(body, false, request)));
    server.on('POST', RETURN_LABEL_PATH, (request) =>
      routes.guarded(request, 'ReturnLabelRequest', true, (body) => routes.label(body, true, request)),
    );
    server.on('DELETE', CANCEL_PATH, (request) => routes.guarded(request, null, true, () => routes.cancel(request)));
    server.on('GET', LOCATIONS_PATH, (request) => routes.guarded(request, null, false, () => routes.locate(request)));
    return routes;
  }

  labelCalls(): ReceivedRequest[] {
    return this.server.requests.filter((r) => r.method === 'POST' && (r.path === LABEL_PATH || r.path === RETURN_LABEL_PATH));
  }

  /** OAuth bearer token, the payment token where postage is spent, and the request schema, before the endpoint's rules. */
  private async guarded(
    request: ReceivedRequest,
    schema: UspsSchema | null,
    payment: boolean,
    handle: (body: any) => ScriptedReply | Promise<ScriptedReply>,
  ) {
    if (!/^Bearer usps-access-token-\d+$/.test(String(request.headers.authorization ?? '')))
      return error(401, '401', 'Unauthorized', 'The access token is missing or invalid.');
    if (payment && !this.paymentTokens.includes(String(request.headers['x-payment-authorization-token'] ?? '')))
      return error(401, '401', 'Unauthorized', 'The X-Payment-Authorization-Token is missing or invalid.');
    if (schema === null) return handle(undefined);
    if (!String(request.headers['content-type']).startsWith('application/json')) this.faults.push(`${request.path}: not JSON`);
    let body: unknown;
    try {
      body = JSON.parse(request.body);
    } catch {
      return error(400, '400', 'Bad Request', 'The request body is not valid JSON.');
    }
    const problems = schemaProblems(schema, body);
    if (problems.length > 0) {
      this.faults.push(...problems.map((p) => `${request.path} ${p}`));
      return error(400, '400', 'Bad Request', problems[0]);
    }
    return handle(body);
  }

  private fault(rule: string, parameter?: string): ScriptedReply {
    this.faults.push(rule);
    return error(400, '400', 'Bad Request', rule, parameter);
  }

  private authorize(body: any): ScriptedReply {
    const payer = body.roles.find((r: any) => r.roleName === 'PAYER');
    const owner = body.roles.find((r: any) => r.roleName === 'LABEL_OWNER');
    if (!payer || !owner) return this.fault('a PAYER and a LABEL_OWNER role are needed');
    if (payer.CRID !== ACCOUNT.crid || payer.accountNumber !== ACCOUNT.account_number || payer.accountType !== ACCOUNT.account_type)
      return error(400, '400', 'Bad Request', 'The payment account is not linked to this CRID.', 'roles.accountNumber');
    // A JWT-shaped token whose `exp` says it lasts 8 hours.
    const claims = Buffer.from(JSON.stringify({ sub: payer.CRID, exp: Math.floor(Date.now() / 1000) + 8 * 3600 })).toString('base64url');
    const token = `eyJhbGciOiJub25lIn0.${claims}.usps-payment-${this.paymentTokens.length + 1}`;
    this.paymentTokens.push(token);
    return { body: { paymentAuthorizationToken: token } };
  }

  private trackingNumber(): string {
    const body = `92055901755477${String(++this.counter).padStart(7, '0')}`;
    return `${body}${checkDigit(body)}`;
  }

  private async label(body: any, isReturn: boolean, request: ReceivedRequest): Promise<ScriptedReply> {
    const to = body.toAddress;
    const from = body.fromAddress;
    const pkg = body.packageDescription;
    for (const [name, party] of [
      ['toAddress', to],
      ['fromAddress', from],
    ] as const) {
      if (!(party.firstName && party.lastName) && !party.firm)
        return this.fault(`${name}: the First and Last Name or Firm Name are always required`);
    }
    // A ZIP Code USPS does not know: its address validation refuses it, naming the field.
    if (to.ZIPCode.startsWith('000')) return error(400, '400', 'Bad Request', 'Address Not Found.', 'toAddress.ZIPCode');
    if (pkg.weight > 70) return this.fault('Items must weigh 70 pounds (1120 ounces) or less');
    if (to.holdForPickup) {
      if (!to.facilityId || !to.email || !to.phone || !from.firstName || !from.lastName || !from.email || !from.phone)
        return this.fault('Hold for Pickup needs toAddress facilityId, email, phone and fromAddress firstName, lastName, email, phone');
      if (!(fixture('post-office-locations') as any).locations.some((l: any) => l.facilityId === to.facilityId))
        return error(400, '400', 'Bad Request', 'Invalid Facility ID.', 'toAddress.facilityId');
    }
    if (pkg.processingCategory === 'FLATS' && pkg.mailClass === 'USPS_GROUND_ADVANTAGE')
      return this.fault('FLATS is not valid for USPS Ground Advantage');
    const imageType = body.imageInfo?.imageType ?? 'PDF';
    const trackingNumber = this.trackingNumber();
    this.labels.push({
      trackingNumber,
      isReturn,
      imageType,
      references: (pkg.customerReference ?? []).map((r: any) => r.referenceNumber),
      cancelled: false,
      body,
    });
    const image =
      imageType === 'ZPL203DPI'
        ? Buffer.from(zplLabel(trackingNumber))
        : imageType === 'PNG'
          ? pngLabel(trackingNumber)
          : await pdfLabel(trackingNumber);
    const metadata = {
      labelAddress: { ...to },
      routingInformation: `420${to.ZIPCode}`,
      trackingNumber,
      SKU: isReturn ? 'DRRX0XXXXR05010' : 'DUXP0XXXXC05010',
      postage: 7.25,
      zone: '05',
      ...(isReturn ? {} : { commitment: { name: '3-Day', scheduleDeliveryDate: '2026-11-26' }, constructCode: 'C01' }),
      weightUOM: 'lb',
      weight: pkg.weight,
      fees: [],
      extraServices: [],
    };
    const imageField = isReturn ? 'returnLabelImage' : 'labelImage';
    let reply: ScriptedReply;
    if (!this.multipart && String(request.headers.accept ?? '').includes('application/vnd.usps.labels+json')) {
      reply = {
        headers: { 'content-type': 'application/vnd.usps.labels+json' },
        body: JSON.stringify({ ...metadata, [imageField]: image.toString('base64') }),
      };
    } else {
      const boundary = `usps-${trackingNumber}`;
      const file = imageType === 'ZPL203DPI' ? 'label.zpl' : imageType === 'PNG' ? 'label.png' : 'label.pdf';
      const type = imageType === 'ZPL203DPI' ? 'application/zpl' : imageType === 'PNG' ? 'image/png' : 'application/pdf';
      const metaName = isReturn ? 'returnLabelMetadata' : 'labelMetadata';
      const body = [
        `--${boundary}\r\nContent-Disposition: form-data; name="${metaName}"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(metadata)}\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="${imageField}"; filename="${file}"\r\nContent-Type: ${type}\r\nContent-Transfer-Encoding: base64\r\n\r\n${image.toString('base64')}\r\n`,
        `--${boundary}--\r\n`,
      ].join('');
      reply = { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body };
    }
    if (this.loseNextAnswer) {
      this.loseNextAnswer = false;
      // An invalid Content-Length: the client reads no answer, as after a connection broken mid-answer.
      return { status: 200, headers: { ...reply.headers, 'content-length': 'broken' }, body: reply.body };
    }
    return reply;
  }

  private cancel(request: ReceivedRequest): ScriptedReply {
    const number = decodeURIComponent(request.path.split('/').pop() ?? '');
    const label = this.labels.find((l) => l.trackingNumber === number);
    if (!label) return error(400, '400', 'Bad Request', 'The label was not found.', 'trackingNumber');
    if (label.cancelled) return error(400, '400', 'Bad Request', 'The label has already been canceled.', 'trackingNumber');
    label.cancelled = true;
    return { body: { trackingNumber: number, status: 'CANCELED' } };
  }

  private locate(request: ReceivedRequest): ScriptedReply {
    const q = request.query;
    const byPoint = q.has('LAT') && q.has('LONG');
    if (!byPoint && !q.has('ZIPCode') && !(q.has('city') && q.has('state')))
      return this.fault('locator: an address, a city and state, a ZIP Code or a point is needed');
    if (q.has('ZIPCode') && !/^\d{5}$/.test(q.get('ZIPCode') ?? '')) return this.fault('locator: ZIPCode is 5 digits', 'ZIPCode');
    const radius = Number(q.get('radius') ?? '20');
    if (!Number.isInteger(radius) || radius < 1) this.faults.push('locator: radius in whole miles');
    const near = byPoint
      ? Math.abs(Number(q.get('LAT')) - 40.88) < 0.2 && Math.abs(Number(q.get('LONG')) + 73.9) < 0.2
      : q.get('ZIPCode') === '10463';
    return { body: near ? fixture('post-office-locations') : { locations: [], metadata: { count: 0 } } };
  }
}
