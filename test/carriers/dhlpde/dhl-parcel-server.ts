import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import PDFDocument from 'pdfkit';
import { dhlPaketCheckDigit } from '../../../src/carriers/detect/dhl.js';
import { CarrierServer, type ReceivedRequest, type ScriptedReply } from '../support/carrier-server.js';
import { orderFaults, returnFaults } from './dhl-parcel-schema.js';
import { dhlpdeFixture, SETTINGS } from './dhlpde.fixtures.js';

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));

export const TOKEN_PATH = '/parcel/de/account/auth/ropc/v1/token';
export const ORDERS_PATH = '/parcel/de/shipping/v2/orders';
export const RETURNS_PATH = '/parcel/de/shipping/returns/v1/orders';
export const LOCATIONS_PATH = /^\/location-finder\/v1\/find-by-(geo|address)$/;
export const TRACK_PATH = '/track/shipments';

const PRINT_FORMATS = [
  'A4',
  '910-300-600',
  '910-300-610',
  '910-300-700',
  '910-300-700-oz',
  '910-300-710',
  '910-300-300',
  '910-300-300-oz',
  '910-300-400',
  '910-300-410',
  '100x70mm',
];
const PROCEDURES: Record<string, string[]> = {
  V01PAK: ['01'],
  V53WPAK: ['53'],
  V54EPAK: ['54'],
  V62WP: ['62'],
  V62KP: ['62'],
  V66WPI: ['66'],
};
/** The postal codes this DHL backend can encode, with their city: enough to tell codeable addresses from others. */
const ENCODABLE: Record<string, string> = { '53113': 'Bonn', '53111': 'Bonn', '10117': 'Berlin', '20095': 'Hamburg', '04129': 'Leipzig' };

/** One shipment the local DHL created, with the label bytes it sent. */
export interface CreatedShipment {
  number: string;
  label: Buffer;
  format: 'pdf' | 'zpl';
  customsDoc: Buffer | null;
  returnNumber: string | null;
  returnLabel: Buffer | null;
  cancelled: boolean;
  body: Record<string, unknown>;
}

function pdf(lines: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: [288, 432], margin: 18, info: { CreationDate: new Date(0) } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.fontSize(12);
    for (const line of lines) doc.text(line);
    doc.end();
  });
}

const bearer = (request: ReceivedRequest) => /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];

/**
 * A local DHL Parcel DE standing in for `api-sandbox.dhl.com` and `api.dhl.com`: the password-grant token
 * endpoint, `POST/DELETE /orders` of the Shipping API v2, the Returns API, the Location Finder and Unified
 * Tracking. It checks every request body against the fields of DHL's OpenAPI descriptions (dhl-parcel-schema.ts)
 * and answers a mistake as DHL does (400 with the property path), counts calls, keeps the labels it sent, and
 * behaves like DHL's backend where a test needs it (billing number per product, codeable German addresses).
 */
export class DhlParcelServer extends CarrierServer {
  readonly validTokens = new Set<string>();
  readonly created = new Map<string, CreatedShipment>();
  /** What the schema check found wrong in requests (a mapper bug shows up here). */
  readonly faults: string[] = [];
  receiverIds = new Set(['deu']);
  /** Parcels heavier than this are refused (DHL's weight check of a product), to provoke partly booked orders. */
  maxWeightGrams = 31_500;
  /** Numbers the tracking endpoint knows besides those this server created. */
  readonly trackable = new Set<string>();
  private issued = 0;
  private sequence = 100;

  static async create(): Promise<DhlParcelServer> {
    const server = new DhlParcelServer();
    server.on('POST', TOKEN_PATH, (request) => server.token(request));
    server.on('POST', ORDERS_PATH, (request) => server.authorized(request, () => server.createOrders(request)));
    server.on('DELETE', ORDERS_PATH, (request) => server.authorized(request, () => server.deleteOrders(request)));
    server.on('POST', RETURNS_PATH, (request) => server.authorized(request, () => server.createReturn(request)));
    server.on('GET', LOCATIONS_PATH, (request) => server.locations(request));
    server.on('GET', TRACK_PATH, (request) => server.track(request));
    return server.start();
  }

  /** The next synthetic DHL Paket number (12 digits, DHL's check digit). */
  nextNumber(): string {
    const base = `0034043${String(this.sequence++).padStart(4, '0')}`;
    return `${base}${dhlPaketCheckDigit(`${base}0`)}`;
  }

  private token(request: ReceivedRequest): ScriptedReply {
    const form = new URLSearchParams(request.body);
    const ok =
      String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded') &&
      form.get('grant_type') === 'password' &&
      form.get('client_id') === SETTINGS.api_key &&
      form.get('client_secret') === SETTINGS.api_secret &&
      form.get('username') === SETTINGS.username &&
      form.get('password') === SETTINGS.password;
    if (!ok) return { status: 401, body: { error: 'invalid_grant', error_description: 'Invalid user credentials' } };
    const token = `wb-dhl-token-${++this.issued}`;
    this.validTokens.add(token);
    return { body: { ...(dhlpdeFixture('token') as object), access_token: token } };
  }

  private async authorized(request: ReceivedRequest, handle: () => Promise<ScriptedReply> | ScriptedReply): Promise<ScriptedReply> {
    const token = bearer(request);
    if (!token || !this.validTokens.has(token))
      return { status: 401, body: { title: 'Unauthorized', statusCode: 401, detail: 'Unauthorized for given resource.' } };
    return handle();
  }

  private fault(faults: string[]): ScriptedReply {
    this.faults.push(...faults);
    return {
      status: 400,
      body: {
        status: { title: 'Bad Request', statusCode: 400, detail: 'Your request contained technical errors as listed below.' },
        items: faults.map((fault) => {
          const [propertyPath, message] = fault.split(': ');
          return { propertyPath, message };
        }),
      },
    };
  }

  private async createOrders(request: ReceivedRequest): Promise<ScriptedReply> {
    const query = request.query;
    const queryFaults = [
      ...(query.has('docFormat') && !['PDF', 'ZPL2'].includes(query.get('docFormat')!) ? ['docFormat: not PDF or ZPL2'] : []),
      ...(query.has('includeDocs') && !['include', 'URL'].includes(query.get('includeDocs')!) ? ['includeDocs: not include or URL'] : []),
      ...(['printFormat', 'retourePrintFormat'] as const)
        .filter((p) => query.has(p) && !PRINT_FORMATS.includes(query.get(p)!))
        .map((p) => `${p}: unknown`),
    ];
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(request.body);
    } catch {
      return this.fault(['body: not JSON']);
    }
    const faults = [...queryFaults, ...orderFaults(body)];
    if (faults.length > 0) return this.fault(faults);
    const zpl = query.get('docFormat') === 'ZPL2';
    const mustEncode = query.get('mustEncode') === 'true';
    const dryRun = query.get('validate') === 'true';
    const shipments = body.shipments as Array<Record<string, any>>;
    const items = [];
    for (const shipment of shipments) items.push(await this.createOne(shipment, { zpl, mustEncode, dryRun }));
    const ok = items.filter((item) => item.sstatus.status === 200).length;
    const status = shipments.length > 1 ? 207 : ok === 1 ? 200 : 400;
    const title = status === 207 ? 'Multi-Status' : status === 200 ? 'OK' : 'Bad Request';
    return { status, body: { status: { title, status, detail: `${ok} of ${shipments.length} shipments successfully created.` }, items } };
  }

  /** Checks one shipment as DHL's backend does and, unless it is a dry run (`validate=true`), creates it with its labels. */
  private async createOne(shipment: Record<string, any>, options: { zpl: boolean; mustEncode: boolean; dryRun: boolean }) {
    const procedure = String(shipment.billingNumber).slice(10, 12);
    const errors: Array<{ property: string; validationMessage: string; validationState: string }> = [];
    const warnings: typeof errors = [];
    if (!PROCEDURES[shipment.product]?.includes(procedure)) {
      errors.push({
        property: 'billingNumber',
        validationMessage: 'The billing number does not fit the product.',
        validationState: 'Error',
      });
    }
    const grams = shipment.details.weight.uom === 'kg' ? shipment.details.weight.value * 1000 : shipment.details.weight.value;
    if (grams > this.maxWeightGrams) {
      errors.push({
        property: 'dimension.weight',
        validationMessage: 'The weight is too high for the chosen product.',
        validationState: 'Error',
      });
    }
    const consignee = shipment.consignee;
    const known = ENCODABLE[consignee.postalCode];
    if (consignee.country === 'DEU' && consignee.addressStreet && known && known !== consignee.city) {
      const message = {
        property: 'consignee',
        validationMessage: 'The city entered does not match the postcode. The shipment is not codeable.',
      };
      (options.mustEncode ? errors : warnings).push({ ...message, validationState: options.mustEncode ? 'Error' : 'Warning' });
    }
    if (errors.length > 0) return { sstatus: { title: 'Bad Request', status: 400 }, validationMessages: [...errors, ...warnings] };
    if (options.dryRun) return { sstatus: { title: 'OK', status: 200 }, ...(warnings.length > 0 ? { validationMessages: warnings } : {}) };
    const number = this.nextNumber();
    const label = options.zpl
      ? Buffer.from(`^XA^FO40,40^A0N,36,36^FDDHL ${shipment.product} ${number}^FS^XZ`)
      : await pdf(['DHL Paket (local test server)', shipment.product, number, String(consignee.name1 ?? consignee.name)]);
    const customsDoc = shipment.customs
      ? await pdf(['CN23', number, ...shipment.customs.items.map((i: { itemDescription: string }) => i.itemDescription)])
      : null;
    const retoure = shipment.services?.dhlRetoure;
    const returnNumber = retoure ? this.nextNumber() : null;
    const returnLabel = returnNumber ? await pdf(['DHL Retoure (local test server)', returnNumber]) : null;
    this.created.set(number, {
      number,
      label,
      format: options.zpl ? 'zpl' : 'pdf',
      customsDoc,
      returnNumber,
      returnLabel,
      cancelled: false,
      body: shipment,
    });
    return {
      shipmentNo: number,
      ...(returnNumber ? { returnShipmentNo: returnNumber } : {}),
      sstatus: { title: 'OK', status: 200 },
      label: options.zpl
        ? { zpl2: label.toString('utf8'), fileFormat: 'ZPL2' }
        : { b64: label.toString('base64'), fileFormat: 'PDF', printFormat: 'A4' },
      ...(customsDoc ? { customsDoc: { b64: customsDoc.toString('base64'), fileFormat: 'PDF', printFormat: 'A4' } } : {}),
      ...(returnLabel ? { returnLabel: { b64: returnLabel.toString('base64'), fileFormat: 'PDF' } } : {}),
      ...(warnings.length > 0 ? { validationMessages: warnings } : {}),
    };
  }

  private deleteOrders(request: ReceivedRequest): ScriptedReply {
    const numbers = request.query.getAll('shipment');
    if (!request.query.get('profile') || numbers.length === 0 || numbers.length > 30)
      return this.fault(['profile: profile and 1 to 30 shipment parameters are required']);
    const items = numbers.map((number) => {
      const shipment = this.created.get(number);
      if (!shipment || shipment.cancelled) {
        return { shipmentNo: number, sstatus: { title: 'UnknownShipmentNumber', status: 204, detail: 'Unknown shipment number.' } };
      }
      shipment.cancelled = true;
      return { shipmentNo: number, sstatus: { title: 'OK', status: 200 } };
    });
    const ok = items.filter((item) => item.sstatus.status === 200).length;
    const status = numbers.length > 1 ? 207 : ok === 1 ? 200 : 400;
    return {
      status,
      body: {
        status: {
          title: status === 400 ? 'Bad Request' : 'OK',
          status,
          detail: `${ok} of ${numbers.length} shipment successfully canceled.`,
        },
        items,
      },
    };
  }

  private async createReturn(request: ReceivedRequest): Promise<ScriptedReply> {
    if (request.query.get('labelType') !== 'SHIPMENT_LABEL' && request.query.get('labelType') !== 'BOTH')
      return this.fault(['labelType: unknown']);
    let body: Record<string, any>;
    try {
      body = JSON.parse(request.body);
    } catch {
      return this.fault(['body: not JSON']);
    }
    const faults = returnFaults(body);
    if (faults.length > 0) return this.fault(faults);
    if (!this.receiverIds.has(body.receiverId))
      return { status: 400, body: { title: 'Bad Request', status: 400, detail: `Receiver ID ${body.receiverId} is not valid.` } };
    if (body.shipper.country === 'DEU' && !/^\d{5}$/.test(body.shipper.postalCode)) {
      return { status: 400, body: { title: 'Bad Request', status: 400, detail: 'Postal code is invalid. Please use 99999 format.' } };
    }
    const number = `99999${String(this.sequence++).padStart(6, '0')}`;
    const full = `${number}${dhlPaketCheckDigit(`${number}0`)}`;
    const label = await pdf(['DHL Retoure (local test server)', full, body.shipper.name1]);
    this.created.set(full, {
      number: full,
      label,
      format: 'pdf',
      customsDoc: null,
      returnNumber: null,
      returnLabel: null,
      cancelled: false,
      body,
    });
    return {
      status: 201,
      body: {
        sstatus: { title: 'Created', status: 201, detail: 'Created' },
        shipmentNo: full,
        label: { b64: label.toString('base64') },
        routingCode: '53113000000000+99000000000000',
      },
    };
  }

  private locations(request: ReceivedRequest): ScriptedReply {
    if (request.headers['dhl-api-key'] !== SETTINGS.api_key)
      return { status: 401, body: { status: 401, title: 'Unauthorized', detail: 'Unauthorized for given resource.' } };
    const q = request.query;
    const radius = Number(q.get('radius') ?? 500);
    const limit = Number(q.get('limit') ?? 15);
    const problems = [
      ...(Number.isFinite(radius) && radius > 0 && radius <= 25_000 ? [] : ['radius: at most 25000']),
      ...(Number.isInteger(limit) && limit > 0 && limit <= 50 ? [] : ['limit: at most 50']),
      ...(q.has('providerType') && !['parcel', 'express'].includes(q.get('providerType')!) ? ['providerType: parcel or express'] : []),
      ...(request.path.endsWith('geo') && !(Number.isFinite(Number(q.get('latitude'))) && Number.isFinite(Number(q.get('longitude'))))
        ? ['latitude/longitude: required']
        : []),
      ...(request.path.endsWith('address') && !/^[A-Z]{2}$/.test(q.get('countryCode') ?? '') ? ['countryCode: required, alpha-2'] : []),
    ];
    if (problems.length > 0) {
      this.faults.push(...problems);
      return { status: 400, body: { status: 400, title: 'Bad Request', detail: problems.join('; ') } };
    }
    if (q.get('postalCode') === '99999') return { status: 404, body: dhlpdeFixture('locations-not-found') };
    return { body: dhlpdeFixture('locations-bonn') };
  }

  private track(request: ReceivedRequest): ScriptedReply {
    const number = request.query.get('trackingNumber') ?? '';
    if (request.headers['dhl-api-key'] !== SETTINGS.api_key)
      return { status: 401, body: { status: 401, title: 'Unauthorized', detail: 'Invalid key' } };
    if (!(this.created.has(number) || this.trackable.has(number)) || request.query.get('service') !== 'parcel-de') {
      return {
        status: 404,
        headers: { 'content-type': 'application/problem+json' },
        body: JSON.stringify({ title: 'No result found', status: 404, detail: `No shipment with shipment number ${number} was found.` }),
      };
    }
    return { body: JSON.parse(JSON.stringify(dhlpdeFixture('tracking-pre-transit')).replaceAll('{{number}}', number)) };
  }
}
