import PDFDocument from 'pdfkit';
import { PNG } from 'pngjs';
import type { CarrierServer, ReceivedRequest, ScriptedReply } from '../support/carrier-server.js';
import { fixture, SETTINGS } from './gls-server.js';
import { SEARCH_BY_ADDRESS, SEARCH_BY_DISTANCE, SHIPMENT_REQUEST, schemaProblems, VALIDATE_REQUEST } from './gls-shipit-schema.js';

/**
 * The local GLS's ShipIT endpoints, on the same server as tracking (one base URL, one token): createParcels,
 * validateParcels, cancelParcelByID and the ParcelShop searches, below `/shipit-farm/v1/backend/rs`. It checks what it receives
 * against the schemas written from GLS's documentation (`gls-shipit-schema.ts`) and the rules GLS states, refuses
 * as ShipIT does (HTTP 400 with `error` and `message` headers), records what it found wrong in `faults`, keeps the
 * parcels it created (so that cancelling finds them), and can lose the answer of the next create after creating.
 */

export const CONTACT_ID = '276a45e7ZY';
export const BOOKING_SETTINGS = { ...SETTINGS, contact_id: CONTACT_ID } as const;

const RS = '/shipit-farm/v1/backend/rs';
export const SHIPMENTS_PATH = `${RS}/shipments`;
export const CANCEL_PATH = new RegExp(`^${RS}/shipments/cancel/[^/]+$`);
export const VALIDATE_PATH = `${RS}/shipments/validate`;
export const DISTANCE_PATH = `${RS}/parcelshop/distance`;
export const ADDRESS_PATH = `${RS}/parcelshop/address`;
const MEDIA_TYPE = 'application/glsVersion1+json';

export interface CreatedAtGls {
  trackIds: string[];
  parcelNumbers: string[];
  references: string[];
  labelFormat: string;
  cancelled: boolean;
  /** GLS has scanned the parcels: they can no longer be cancelled. */
  scanned: boolean;
  body: any;
}

/** ShipIT's refusal: HTTP 400, the reason in the `error` and `message` headers, no body. */
export function refusal(code: string, message: string): ScriptedReply {
  return { status: 400, headers: { error: code, message } };
}

/** A one-page PDF label naming the parcel (made here with pdfkit; nothing recorded from GLS). */
export function pdfLabel(parcelNumber: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: [288, 432], margin: 20, info: { Title: `GLS ${parcelNumber}` } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.fontSize(16).text('GLS');
  doc.fontSize(11).text(`Parcel ${parcelNumber}`);
  doc.end();
  return done;
}

/** A ZPL label for a parcel number. */
export function zplLabel(parcelNumber: string, dpi: 200 | 300): string {
  return `^XA^CI28^PW${dpi === 300 ? 1200 : 800}^FO40,40^A0N,40,40^FDGLS^FS^FO40,120^BCN,200,Y,N,N^FD${parcelNumber}^FS^XZ`;
}

/** A small PNG label whose pixels spell nothing but differ per parcel number. */
export function pngLabel(parcelNumber: string): Buffer {
  const png = new PNG({ width: 40, height: 20 });
  for (let i = 0; i < png.data.length; i += 4) {
    const shade = parcelNumber.charCodeAt((i / 4) % parcelNumber.length) % 2 === 0 ? 0 : 255;
    png.data[i] = shade;
    png.data[i + 1] = shade;
    png.data[i + 2] = shade;
    png.data[i + 3] = 255;
  }
  return PNG.sync.write(png);
}

export class GlsShipitRoutes {
  readonly created: CreatedAtGls[] = [];
  /** What the server found wrong in a request: schema problems and broken rules. */
  readonly faults: string[] = [];
  /** The next create is made, then its answer is broken mid-way (the client reads no answer). */
  loseNextAnswer = false;
  private counter = 0;

  constructor(private readonly server: CarrierServer) {}

  /** Adds the ShipIT endpoints to a local GLS. */
  static install(server: CarrierServer): GlsShipitRoutes {
    const routes = new GlsShipitRoutes(server);
    server.on('POST', SHIPMENTS_PATH, (request) => routes.guarded(request, SHIPMENT_REQUEST, (body) => routes.create(body)));
    server.on('POST', CANCEL_PATH, (request) => routes.guarded(request, null, () => routes.cancel(request)));
    server.on('POST', VALIDATE_PATH, (request) => routes.guarded(request, VALIDATE_REQUEST, (body) => routes.validate(body)));
    server.on('POST', DISTANCE_PATH, (request) => routes.guarded(request, SEARCH_BY_DISTANCE, (body) => routes.nearPoint(body)));
    server.on('POST', ADDRESS_PATH, (request) => routes.guarded(request, SEARCH_BY_ADDRESS, (body) => routes.nearAddress(body)));
    return routes;
  }

  createCalls(): ReceivedRequest[] {
    return this.server.to(SHIPMENTS_PATH);
  }

  /** The bearer token and GLS's media type, then the request schema, before the endpoint's own rules. */
  private async guarded(request: ReceivedRequest, schema: object | null, handle: (body: any) => ScriptedReply | Promise<ScriptedReply>) {
    if (!/^Bearer tok-\d+$/.test(String(request.headers.authorization ?? ''))) {
      return {
        status: 401,
        body: { fault: { faultstring: 'Invalid access token', detail: { errorcode: 'oauth.v2.InvalidAccessToken' } } },
      };
    }
    if (!String(request.headers.accept ?? '').includes(MEDIA_TYPE)) this.faults.push(`${request.path}: Accept without ${MEDIA_TYPE}`);
    if (schema === null) return handle(undefined);
    if (request.headers['content-type'] !== MEDIA_TYPE) this.faults.push(`${request.path}: Content-Type is not ${MEDIA_TYPE}`);
    let body: unknown;
    try {
      body = JSON.parse(request.body);
    } catch {
      return refusal('MANDATORY_PARAMETER_NOT_SET', 'The Mandatory parameter ShipmentRequestData is not set');
    }
    const problems = schemaProblems(schema, body);
    if (problems.length > 0) {
      this.faults.push(...problems.map((p) => `${request.path} ${p}`));
      return refusal(
        'INVALID_FIELD_VALUE',
        `Invalid field ${problems[0].split(' ')[0]}. Value is not a valid value. Shipment validation failed`,
      );
    }
    return handle(body);
  }

  /**
   * validateParcels: the contact as for a create, then the issues GLS would refuse the shipment for (a German
   * postal code that is not five digits; EXPRESS units over 25 kg, this local GLS's own product rule).
   */
  private validate(body: any): ScriptedReply {
    const shipment = body.Shipment;
    if (shipment.Shipper.ContactID !== CONTACT_ID) return this.unknownContact(shipment.Shipper.ContactID);
    const issues: Array<{ Rule: string; Location: string; Parameters: string[] }> = [];
    const consignee = shipment.Consignee.Address;
    if (consignee.CountryCode === 'DE' && !/^\d{5}$/.test(consignee.ZIPCode))
      issues.push({ Rule: 'ADDRESS_VALID_ZIPCODE', Location: 'Shipment.Consignee.Address', Parameters: [consignee.ZIPCode] });
    if (shipment.Product === 'EXPRESS' && shipment.ShipmentUnit.some((u: any) => u.Weight > 25))
      issues.push({ Rule: 'ARTICLES_PRODUCT_WEIGHT', Location: 'Shipment.ShipmentUnit', Parameters: ['EXPRESS'] });
    const answer = { Success: issues.length === 0, ValidationResult: { Issues: issues } };
    return { headers: { 'content-type': MEDIA_TYPE }, body: JSON.stringify(answer) };
  }

  private unknownContact(contactId: string): ScriptedReply {
    return refusal(
      'INVALID_FIELD_VALUE',
      `Invalid field Shipment.Shipper.ContactID. Value ${contactId} is not a valid value. Shipper does not exist or is not available for the user.`,
    );
  }

  private async create(body: any): Promise<ScriptedReply> {
    const shipment = body.Shipment;
    if (shipment.Shipper.ContactID !== CONTACT_ID) return this.unknownContact(shipment.Shipper.ContactID);
    const consignee = shipment.Consignee.Address;
    if (consignee.CountryCode === 'DE' && !/^\d{5}$/.test(consignee.ZIPCode)) {
      return refusal(
        'INVALID_FIELD_VALUE',
        `Invalid field consignee.zip. Value ${consignee.ZIPCode} is not a valid value. Shipment validation failed`,
      );
    }
    const services: any[] = shipment.Service ?? [];
    const shop = services.find((s) => s.ShopDelivery)?.ShopDelivery;
    if (shop) {
      if (shipment.Product !== 'PARCEL')
        return refusal(
          'INVALID_SERVICE_SELECTION',
          'The services service_shopdelivery cannot be combined with the remaining services of this shipment',
        );
      const known = (fixture('parcelshops.json') as any).ParcelShop.map((s: any) => s.ParcelShopID);
      if (!known.includes(shop.ParcelShopID))
        return refusal(
          'INVALID_FIELD_VALUE',
          `Invalid field ShipmentRequestData.Shipment.Service.ShopDelivery.ParcelShopID. Value ${shop.ParcelShopID} is not a valid value.`,
        );
      if (!consignee.eMail && !consignee.MobilePhoneNumber)
        this.faults.push('ShopDelivery without the consignee’s e-mail or mobile number');
    }
    const { TemplateSet: template, LabelFormat: format } = body.PrintingOptions.ReturnLabels;
    if ((format === 'ZEBRA') !== template.startsWith('ZPL_')) this.faults.push(`label format ${format} with template ${template}`);

    const units: any[] = shipment.ShipmentUnit;
    const parcelNumbers = units.map(() => `5310${String(4_000_000 + ++this.counter).padStart(8, '0')}`);
    const trackIds = parcelNumbers.map((n) => `ZW${n.slice(-6)}`);
    const references = [...(shipment.ShipmentReference ?? []), ...units.flatMap((u) => u.ShipmentUnitReference ?? [])];
    this.created.push({ trackIds, parcelNumbers, references, labelFormat: format, cancelled: false, scanned: false, body });
    const documents = await Promise.all(parcelNumbers.map((n) => this.label(n, format, template)));
    const answer = {
      CreatedShipment: {
        ShipmentReference: shipment.ShipmentReference ?? [],
        ParcelData: parcelNumbers.map((number, i) => ({
          TrackID: trackIds[i],
          ParcelNumber: number,
          Barcodes: { Primary1D: number, Primary1DPrint: true },
          RoutingInfo: {
            Tour: '1234',
            InboundSortingFlag: '003',
            FinalLocationCode: 'DE 202',
            HubLocation: 'ham',
            LastRoutingDate: shipment.ShippingDate,
          },
        })),
        PrintData: documents.map((data) => ({ Data: data.toString('base64'), LabelFormat: format })),
        CustomerID: '2764200001',
        PickupLocation: 'DE 202',
        GDPR: ['Data protection: see the GLS group website'],
      },
    };
    if (this.loseNextAnswer) {
      this.loseNextAnswer = false;
      // An invalid Content-Length: the client reads no answer, as after a connection broken mid-answer.
      return { status: 200, headers: { 'content-type': MEDIA_TYPE, 'content-length': 'broken' }, body: JSON.stringify(answer) };
    }
    return { headers: { 'content-type': MEDIA_TYPE }, body: JSON.stringify(answer) };
  }

  private label(parcelNumber: string, format: string, template: string): Promise<Buffer> | Buffer {
    if (format === 'ZEBRA') return Buffer.from(zplLabel(parcelNumber, template.startsWith('ZPL_300') ? 300 : 200));
    if (format === 'PNG') return pngLabel(parcelNumber);
    return pdfLabel(parcelNumber);
  }

  private cancel(request: ReceivedRequest): ScriptedReply {
    const id = decodeURIComponent(request.path.split('/').pop() ?? '');
    const shipment = this.created.find((s) => s.trackIds.includes(id));
    if (!shipment) return refusal('INVALID_FIELD_VALUE', `Invalid field TrackID. Value ${id} is not a valid value. Parcel not found.`);
    if (shipment.scanned) return { headers: { 'content-type': MEDIA_TYPE }, body: JSON.stringify({ TrackID: id, Result: 'SCANNED' }) };
    shipment.cancelled = true;
    return { headers: { 'content-type': MEDIA_TYPE }, body: JSON.stringify({ TrackID: id, Result: 'CANCELLED' }) };
  }

  /** Around Hamburg the fixture's ParcelShops, elsewhere none. */
  private nearPoint(body: any): ScriptedReply {
    const nearHamburg = Math.abs(Number(body.Latitude) - 53.55) < 0.2 && Math.abs(Number(body.Longitude) - 10.0) < 0.3;
    return this.shops(nearHamburg, body.MaxNumberOfShops);
  }

  /** Hamburg postal codes (20…) in Germany get the fixture's ParcelShops, others none. */
  private nearAddress(body: any): ScriptedReply {
    return this.shops(body.CountryCode === 'DE' && String(body.ZIPCode ?? '').startsWith('20'), body.MaxNumberOfShops);
  }

  private shops(found: boolean, max: string | undefined): ScriptedReply {
    const list = found ? (fixture('parcelshops.json') as any).ParcelShop : [];
    return { headers: { 'content-type': MEDIA_TYPE }, body: JSON.stringify({ ParcelShop: list.slice(0, Number(max ?? list.length)) }) };
  }
}
