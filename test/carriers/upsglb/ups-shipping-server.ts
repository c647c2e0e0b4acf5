import { upsCheckDigit } from '../../../src/carriers/detect/ups.js';
import type { ReceivedRequest, ScriptedReply } from '../support/carrier-server.js';
import { gifLabel, invoicePdf, zplLabel } from './ups-labels.js';
import { fixture, SETTINGS, type UpsServer } from './ups-server.js';
import { type SpecSchema, specProblems } from './ups-spec.js';

/**
 * The local UPS's Shipping and Locator endpoints, on the same server as tracking (one base URL, one token):
 * ship, void, label recovery and Access Point search. It checks what it receives against UPS's own schemas
 * (`ups-spec.ts`) and the rules UPS's descriptions state, records what it found wrong in `faults`, keeps the
 * shipments it booked (so that recovery finds them by reference and void cancels them), and can lose the
 * answer of the next ship call after booking it.
 */

/** The shipper number of the tests' UPS account. */
export const SHIPPER_NUMBER = 'WB4Y82';
export const BOOKING_SETTINGS = { ...SETTINGS, account_number: SHIPPER_NUMBER } as const;

export const SHIP_PATH = '/api/shipments/v2409/ship';
export const VOID_PATH = /^\/api\/shipments\/v2409\/void\/cancel\/[^/]+$/;
export const RECOVERY_PATH = '/api/labels/v1/recovery';
export const LOCATOR_PATH = '/api/locations/v3/search/availabilities/64';

export interface BookedAtUps {
  shipmentId: string;
  references: string[];
  packages: string[];
  labelCode: 'GIF' | 'ZPL';
  voided: boolean;
  international: boolean;
  body: any;
}

const EU = new Set('AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE MC'.split(' '));
const error = (status: number, code: string, message: string): ScriptedReply => ({
  status,
  body: { response: { errors: [{ code, message }] } },
});

export class UpsShippingRoutes {
  readonly booked: BookedAtUps[] = [];
  /** What the server found wrong in a request: schema problems and broken rules. */
  readonly faults: string[] = [];
  /** The next ship call is booked, then its answer is broken mid-way (the client sees no readable answer). */
  loseNextShipAnswer = false;
  /** How recovery by reference answers: with the labels, or with the candidates' tracking numbers only. */
  recoveryMode: 'labels' | 'candidates' = 'labels';
  private counter = 0;

  constructor(private readonly server: UpsServer) {}

  /** Adds the shipping and locator endpoints to a local UPS. */
  static install(server: UpsServer): UpsShippingRoutes {
    const routes = new UpsShippingRoutes(server);
    server.on('POST', SHIP_PATH, (request) => routes.guarded(request, 'SHIPRequestWrapper', (body) => routes.ship(body)));
    server.on('DELETE', VOID_PATH, (request) => routes.guarded(request, null, () => routes.void(request)));
    server.on('POST', RECOVERY_PATH, (request) => routes.guarded(request, 'LABELRECOVERYRequestWrapper', (body) => routes.recover(body)));
    server.on('POST', LOCATOR_PATH, (request) => routes.guarded(request, 'LOCATORRequestWrapper', (body) => routes.locate(body, request)));
    return routes;
  }

  shipCalls(): ReceivedRequest[] {
    return this.server.to(SHIP_PATH);
  }

  /** Bearer token, UPS's headers and the request schema, before the endpoint's own rules. */
  private async guarded(
    request: ReceivedRequest,
    schema: SpecSchema | null,
    handle: (body: any) => ScriptedReply | Promise<ScriptedReply>,
  ) {
    const token = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    if (!token || !this.server.validTokens.has(token)) return error(401, '250002', 'Invalid Authentication Information.');
    if (!/^[A-Za-z0-9]{1,32}$/.test(String(request.headers.transid ?? '')))
      this.faults.push(`${request.path}: transId missing or over 32 characters`);
    if (!request.headers.transactionsrc) this.faults.push(`${request.path}: transactionSrc missing`);
    if (schema === null) return handle(undefined);
    if (!String(request.headers['content-type']).startsWith('application/json')) this.faults.push(`${request.path}: not JSON`);
    let body: unknown;
    try {
      body = JSON.parse(request.body);
    } catch {
      return error(400, '10001', 'The request is not well formed.');
    }
    const problems = specProblems(schema, body);
    if (problems.length > 0) {
      this.faults.push(...problems.map((p) => `${request.path} ${p}`));
      return error(400, '10002', `The request is well formed but the request is not valid: ${problems[0]}`);
    }
    return handle(body);
  }

  private fault(rule: string): ScriptedReply {
    this.faults.push(rule);
    return error(400, '10002', rule);
  }

  private trackingNumber(): string {
    const body = `1Z${SHIPPER_NUMBER}20${String(++this.counter).padStart(7, '0')}`;
    return `${body}${upsCheckDigit(`${body}0`)}`;
  }

  private async ship(body: any): Promise<ScriptedReply> {
    const { Shipment: shipment, LabelSpecification: spec } = body.ShipmentRequest;
    const shipper = shipment.Shipper;
    const shipTo = shipment.ShipTo;
    const shipFrom = shipment.ShipFrom ?? shipper;
    const charge = shipment.PaymentInformation?.ShipmentCharge?.[0]?.BillShipper?.AccountNumber;
    if (shipper.ShipperNumber !== SHIPPER_NUMBER || charge !== SHIPPER_NUMBER)
      return error(400, '120100', 'Missing or invalid shipper number');
    const to = shipTo.Address.CountryCode;
    const from = shipFrom.Address.CountryCode;
    if ((to === 'US' || to === 'PR') && !/^(\d{5}|\d{9})$/.test(shipTo.Address.PostalCode ?? ''))
      return error(400, '120207', 'Missing/Invalid ShipTo PostalCode. Postal Code length must be 5 or 9 digits.');
    if (['01', '02', '03', '12', '13', '14', '59'].includes(shipment.Service.Code) && !['US', 'PR'].includes(shipper.Address.CountryCode))
      return error(400, '121100', 'The requested service is invalid for the shipment origin');
    const domesticUs = from === to && (from === 'US' || from === 'PR');
    if (domesticUs && shipment.ReferenceNumber) return error(400, '120541', 'Shipment/ReferenceNumber is not allowed for this shipment');
    if (!domesticUs && shipment.Package.some((p: any) => p.ReferenceNumber))
      return this.fault('Package/ReferenceNumber is only valid US/US or PR/PR');
    const imperial = ['US', 'PR'].includes(shipper.Address.CountryCode);
    for (const pkg of shipment.Package) {
      if (pkg.PackageWeight.UnitOfMeasurement.Code !== (imperial ? 'LBS' : 'KGS'))
        return this.fault('weight unit not valid for the shipper country');
      if (pkg.Dimensions && pkg.Dimensions.UnitOfMeasurement.Code !== (imperial ? 'IN' : 'CM'))
        return this.fault('dimension unit not valid for the shipper country');
    }
    const isReturn = Boolean(shipment.ReturnService);
    if (isReturn && (shipment.ReturnService.Code !== '9' || shipment.Package.some((p: any) => !p.Description)))
      return this.fault('a PRL return needs ReturnService 9 and a Description on each package');
    if (isReturn && shipment.Package.length > 20) return this.fault('at most 20 packages in a return');
    const international = from !== to;
    if (international && (!shipper.Phone || !shipTo.Phone || !shipTo.AttentionName))
      return this.fault('international: phones and AttentionName needed');
    const customs = from !== to && !(EU.has(from) && EU.has(to)) && !(['US', 'PR'].includes(from) && ['US', 'PR'].includes(to));
    const forms = shipment.ShipmentServiceOptions?.InternationalForms;
    if (customs && !forms) return this.fault('InternationalForms needed across a customs border');
    if (
      forms &&
      forms.FormType[0] === '01' &&
      (!forms.InvoiceNumber || !forms.InvoiceDate || !forms.Contacts?.SoldTo || !forms.ReasonForExport)
    )
      return this.fault('an invoice needs InvoiceNumber, InvoiceDate, ReasonForExport and SoldTo');
    if (isReturn && forms && !['05', '10'].includes(forms.FormType[0])) return this.fault('a return carries form 05 or 10 only');
    const point = shipment.AlternateDeliveryAddress;
    if (Boolean(point) !== Boolean(shipment.ShipmentIndicationType))
      return this.fault('AlternateDeliveryAddress goes with ShipmentIndicationType');
    if (point && !shipment.ShipmentServiceOptions?.Notification?.some((n: any) => n.NotificationCode === '012'))
      return this.fault('an Access Point delivery needs notification 012');

    const labelCode: 'GIF' | 'ZPL' = spec.LabelImageFormat.Code === 'ZPL' ? 'ZPL' : 'GIF';
    const packages = shipment.Package.map(() => this.trackingNumber());
    const shipmentId = packages[0];
    const references = [...(shipment.ReferenceNumber ?? []), ...shipment.Package.flatMap((p: any) => p.ReferenceNumber ?? [])].map(
      (r: any) => r.Value,
    );
    this.booked.push({ shipmentId, references, packages, labelCode, voided: false, international: Boolean(forms), body });

    const answer = fixture('ship') as any;
    const results = answer.ShipmentResponse.ShipmentResults;
    results.ShipmentIdentificationNumber = shipmentId;
    results.PackageResults = packages.map((number: string) => ({
      TrackingNumber: number,
      ShippingLabel: { ImageFormat: { Code: labelCode, Description: labelCode }, GraphicImage: this.label(number, labelCode) },
    }));
    if (shipment.ShipmentRatingOptions?.NegotiatedRatesIndicator !== undefined)
      results.NegotiatedRateCharges = { TotalCharge: { CurrencyCode: 'EUR', MonetaryValue: '14.90' } };
    if (forms) {
      const products = forms.Product.map((p: any) => p.Description.join(' '));
      results.Form = {
        Code: '01',
        Description: 'All Requested International Forms',
        Image: {
          ImageFormat: { Code: 'PDF', Description: 'PDF' },
          GraphicImage: (await invoicePdf(shipmentId, products)).toString('base64'),
        },
      };
    }
    this.selfCheck('SHIPResponseWrapper', answer);
    if (this.loseNextShipAnswer) {
      this.loseNextShipAnswer = false;
      // An invalid Content-Length: the client reads no answer, as after a connection broken mid-answer.
      return { status: 200, headers: { 'content-type': 'application/json', 'content-length': 'broken' }, body: JSON.stringify(answer) };
    }
    return { body: answer };
  }

  private label(trackingNumber: string, code: 'GIF' | 'ZPL'): string {
    return (code === 'GIF' ? gifLabel(trackingNumber) : Buffer.from(zplLabel(trackingNumber))).toString('base64');
  }

  private void(request: ReceivedRequest): ScriptedReply {
    const id = decodeURIComponent(request.path.split('/').pop() ?? '');
    const shipment = this.booked.find((s) => s.shipmentId === id && !s.voided);
    if (!shipment) return { status: 400, body: fixture('void-refused') };
    shipment.voided = true;
    const answer = fixture('void') as any;
    answer.VoidShipmentResponse.PackageLevelResults = shipment.packages.map((n) => ({
      TrackingNumber: n,
      Status: { Code: '1', Description: 'Voided' },
    }));
    this.selfCheck('VOIDSHIPMENTResponseWrapper', answer);
    return { body: answer };
  }

  private recover(body: any): ScriptedReply {
    const request = body.LabelRecoveryRequest;
    const code: 'GIF' | 'ZPL' = request.LabelSpecification?.LabelImageFormat?.Code === 'ZPL' ? 'ZPL' : 'GIF';
    const byReference = request.ReferenceValues;
    if (byReference && byReference.ShipperNumber !== SHIPPER_NUMBER) return error(400, '120100', 'Missing or invalid shipper number');
    const shipment = byReference
      ? this.booked.find((s) => !s.voided && s.references.includes(byReference.ReferenceNumber.Value))
      : this.booked.find((s) => !s.voided && s.packages.includes(request.TrackingNumber));
    if (!shipment) return { status: 400, body: fixture('recovery-not-found') };
    const answer: any = byReference && this.recoveryMode === 'candidates' ? fixture('recovery-candidates') : fixture('recovery');
    const response = answer.LabelRecoveryResponse;
    if (byReference && this.recoveryMode === 'candidates') {
      response.TrackingCandidate = shipment.packages.map((n) => ({ ...response.TrackingCandidate[0], TrackingNumber: n }));
    } else {
      response.ShipmentIdentificationNumber = shipment.shipmentId;
      response.LabelResults = shipment.packages.map((n) => ({
        TrackingNumber: n,
        LabelImage: { LabelImageFormat: { Code: code === 'GIF' ? 'gif' : 'zpl' }, GraphicImage: this.label(n, code) },
      }));
    }
    this.selfCheck('LABELRECOVERYResponseWrapper', answer);
    return { body: answer };
  }

  private locate(body: any, request: ReceivedRequest): ScriptedReply {
    if (request.query.get('Locale') !== 'en_US') this.faults.push('locator: Locale query missing');
    const origin = body.LocatorRequest.OriginAddress;
    const criteria = body.LocatorRequest.LocationSearchCriteria;
    if (!criteria?.AccessPointSearch) return this.fault('request option 64 needs AccessPointSearch');
    const lat = Number(origin.Geocode?.Latitude);
    const inAmsterdam =
      origin.AddressKeyFormat?.CountryCode === 'NL' ||
      (Math.abs(lat - 52.37) < 0.2 && Math.abs(Number(origin.Geocode?.Longitude) - 4.89) < 0.3);
    if (!inAmsterdam) return { status: 400, body: fixture('locator-no-results') };
    const answer = fixture('locator');
    this.selfCheck('LOCATORResponseWrapper', answer);
    return { body: answer };
  }

  private selfCheck(schema: SpecSchema, answer: unknown): void {
    for (const problem of specProblems(schema, answer)) this.faults.push(`local UPS answer ${schema} ${problem}`);
  }
}
