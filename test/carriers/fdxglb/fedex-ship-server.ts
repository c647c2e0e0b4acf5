import { fedexExpressCheckDigit } from '../../../src/carriers/detect/fedex.js';
import { FedexCarrier } from '../../../src/carriers/fdxglb/fdxglb.carrier.js';
import type { CarrierToolkit } from '../../../src/carriers/sdk/toolkit.js';
import { CarrierServer, type ReceivedRequest, type ScriptedReply } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';
import { answerFor, CLIENT_ID, CLIENT_SECRET, fixture } from './fdxglb.fixtures.js';
import { invoicePdf, pdfLabel, pngLabel, zplLabel } from './fedex-labels.js';
import { type FedexSchema, schemaProblems } from './fedex-ship-schema.js';

/**
 * A local FedEx for booking: OAuth (a token per project), Create Shipment, Cancel Shipment and Find Locations,
 * and tracking for completeness. It checks what it receives against the request schemas written from FedEx's
 * documentation (`fedex-ship-schema.ts`) and the rules FedEx's descriptions state, records what it found wrong
 * in `faults`, keeps the shipments it booked (so that cancel finds them), and can lose the answer of the next
 * ship call after booking it. Ship and Locations calls must carry a token of the Ship project when one is set
 * apart (`shipClientId`).
 */

export const ACCOUNT = '740561073';
export const SHIP_CLIENT_ID = 'fixture-ship-client-5512';
export const SHIP_CLIENT_SECRET = 'fixture-ship-secret-c04e1';
export const TRACK_SETTINGS = { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, environment: 'sandbox' } as const;
/** One project for everything (FedEx allows it where the Track API shares a project). */
export const BOOKING_SETTINGS = { ...TRACK_SETTINGS, account_number: ACCOUNT } as const;
/** The Ship and Locations APIs in a project of their own. */
export const SPLIT_SETTINGS = { ...BOOKING_SETTINGS, ship_client_id: SHIP_CLIENT_ID, ship_client_secret: SHIP_CLIENT_SECRET } as const;

export const TOKEN_PATH = '/oauth/token';
export const SHIP_PATH = '/ship/v1/shipments';
export const CANCEL_PATH = '/ship/v1/shipments/cancel';
export const VALIDATE_PATH = '/ship/v1/shipments/packages/validate';
export const LOCATIONS_PATH = '/location/v1/locations';

export interface BookedAtFedex {
  master: string;
  pieces: string[];
  references: string[];
  imageType: string;
  /** The label of each piece, as sent. */
  labels: Buffer[];
  cancelled: boolean;
  body: any;
}

const EU = new Set('AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE MC'.split(' '));
const US_ONLY = [
  'PRIORITY_OVERNIGHT',
  'STANDARD_OVERNIGHT',
  'FIRST_OVERNIGHT',
  'FEDEX_2_DAY',
  'FEDEX_2_DAY_AM',
  'FEDEX_EXPRESS_SAVER',
  'GROUND_HOME_DELIVERY',
];

const refusal = (status: number, code: string, message: string, parameters: Array<{ key: string; value: string }> = []): ScriptedReply => ({
  status,
  body: { transactionId: 'local-fedex', errors: [{ code, message, ...(parameters.length > 0 ? { parameterList: parameters } : {}) }] },
});

export class FedexShipRoutes {
  readonly booked: BookedAtFedex[] = [];
  readonly faults: string[] = [];
  loseNextShipAnswer = false;
  /** Tokens issued, by the client id they were issued to. */
  private readonly tokens = new Map<string, string>();
  private counter = 0;

  constructor(
    readonly server: CarrierServer,
    /** The client id whose tokens Ship and Locations calls must carry. */
    private readonly shipClient: string,
  ) {}

  static install(server: CarrierServer, options: { shipClientId?: string } = {}): FedexShipRoutes {
    const routes = new FedexShipRoutes(server, options.shipClientId ?? CLIENT_ID);
    server
      .on('POST', TOKEN_PATH, (request) => routes.token(request))
      .on('POST', '/track/v1/trackingnumbers', (request) => ({ body: answerFor(request.body) }))
      .on('POST', SHIP_PATH, (request) => routes.guarded(request, 'create-shipment', (body) => routes.ship(body)))
      .on('POST', VALIDATE_PATH, (request) => routes.guarded(request, 'validate-shipment', (body) => routes.validate(body)))
      .on('PUT', CANCEL_PATH, (request) => routes.guarded(request, 'cancel-shipment', (body) => routes.cancel(body)))
      .on('POST', LOCATIONS_PATH, (request) => routes.guarded(request, 'find-locations', (body) => routes.locate(body)));
    return routes;
  }

  shipCalls(): ReceivedRequest[] {
    return this.server.to(SHIP_PATH);
  }

  lastShipment(): any {
    return JSON.parse(this.shipCalls().at(-1)!.body).requestedShipment;
  }

  private token(request: ReceivedRequest): ScriptedReply {
    const form = new URLSearchParams(request.body);
    const id = form.get('client_id') ?? '';
    const known: Record<string, string> = { [CLIENT_ID]: CLIENT_SECRET, [SHIP_CLIENT_ID]: SHIP_CLIENT_SECRET };
    if (form.get('grant_type') !== 'client_credentials' || known[id] !== form.get('client_secret'))
      return refusal(401, 'NOT.AUTHORIZED.ERROR', 'The given client credentials were not valid.');
    const token = `fixture-token-${id}-${this.tokens.size + 1}`;
    this.tokens.set(token, id);
    return { body: { access_token: token, token_type: 'bearer', expires_in: 3599, scope: 'CXS' } };
  }

  /** Bearer token of the Ship project, FedEx's headers and the request schema, before the endpoint's own rules. */
  private guarded(request: ReceivedRequest, schema: FedexSchema, handle: (body: any) => ScriptedReply | Promise<ScriptedReply>) {
    const token = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    const client = token ? this.tokens.get(token) : undefined;
    if (!client) return refusal(401, 'NOT.AUTHORIZED.ERROR', 'Access token expired or not valid.');
    if (client !== this.shipClient) return refusal(403, 'FORBIDDEN.ERROR', 'This project is not authorized for this API.');
    if (!String(request.headers['content-type']).startsWith('application/json')) this.faults.push(`${request.path}: not JSON`);
    if (!request.headers['x-customer-transaction-id']) this.faults.push(`${request.path}: x-customer-transaction-id missing`);
    if (request.headers['x-locale'] !== 'en_US') this.faults.push(`${request.path}: x-locale missing`);
    let body: unknown;
    try {
      body = JSON.parse(request.body);
    } catch {
      return refusal(400, 'INVALID.INPUT.EXCEPTION', 'The request body is not JSON.');
    }
    const problems = schemaProblems(schema, body);
    if (problems.length > 0) {
      this.faults.push(...problems.map((p) => `${request.path} ${p}`));
      return refusal(400, 'INVALID.INPUT.EXCEPTION', `Invalid field value in the input: ${problems[0]}`);
    }
    return handle(body);
  }

  private fault(rule: string): ScriptedReply {
    this.faults.push(rule);
    return refusal(400, 'INVALID.INPUT.EXCEPTION', rule);
  }

  private trackingNumber(): string {
    const body = `79490${String(++this.counter).padStart(6, '0')}`;
    return `${body}${fedexExpressCheckDigit(`${body}0`)}`;
  }

  /** FedEx's rules for a shipment (account, parties, service, units, special services, customs): the refusal, or null. */
  private refusal(body: any): ScriptedReply | null {
    const shipment = body.requestedShipment;
    if (body.accountNumber.value !== ACCOUNT || shipment.shippingChargesPayment.payor?.responsibleParty.accountNumber.value !== ACCOUNT)
      return refusal(400, 'ACCOUNTNUMBER.REGISTRATION.REQUIRED', 'Please enter a valid 9-digit FedEx account number.');
    const from = shipment.shipper.address.countryCode;
    const to = shipment.recipients[0].address.countryCode;
    for (const [role, p] of [
      ['SHIPPER', shipment.shipper],
      ['RECIPIENT', shipment.recipients[0]],
    ] as const) {
      const country = p.address.countryCode;
      if (['US', 'CA', 'PR'].includes(country) && !p.address.stateOrProvinceCode)
        return refusal(400, `${role}.STATEORPROVINCECODE.INVALID`, 'A state or province code is required for this country.');
      if (country === 'US' && !/^\d{5}(-?\d{4})?$/.test(p.address.postalCode ?? ''))
        return refusal(400, `${role}.POSTALSTATE.MISMATCH`, `The ${role.toLowerCase()}'s postal code does not belong to its state.`, [
          { key: 'postalCode', value: String(p.address.postalCode ?? '') },
        ]);
      if (!p.contact.personName && !p.contact.companyName) return this.fault(`${role}: personName or companyName needed`);
    }
    if (US_ONLY.includes(shipment.serviceType) && (from !== 'US' || to !== 'US'))
      return refusal(400, 'SERVICETYPE.NOT.ALLOWED', 'The service type is not available between these countries.');
    const imperial = from === 'US' || from === 'PR';
    const items = shipment.requestedPackageLineItems;
    for (const [index, item] of items.entries()) {
      if (item.weight.units !== (imperial ? 'LB' : 'KG')) return this.fault('weight unit not that of the shipper country');
      if (item.dimensions && item.dimensions.units !== (imperial ? 'IN' : 'CM'))
        return this.fault('dimension unit not that of the shipper country');
      if (item.sequenceNumber !== index + 1) return this.fault('sequence numbers 1..n in order');
    }
    if (shipment.totalPackageCount !== items.length) return this.fault('totalPackageCount is not the number of packages');
    if (items.length > 40 && body.processingOptionType !== 'ALLOW_ASYNCHRONOUS')
      return this.fault('more than 40 packages need ALLOW_ASYNCHRONOUS');
    const special: string[] = shipment.shipmentSpecialServices?.specialServiceTypes ?? [];
    const details = shipment.shipmentSpecialServices ?? {};
    if (special.includes('RETURN_SHIPMENT') !== Boolean(details.returnShipmentDetail))
      return this.fault('RETURN_SHIPMENT goes with returnShipmentDetail');
    if (special.includes('HOLD_AT_LOCATION') !== Boolean(details.holdAtLocationDetail))
      return this.fault('HOLD_AT_LOCATION goes with holdAtLocationDetail');
    if (special.includes('ELECTRONIC_TRADE_DOCUMENTS') !== Boolean(details.etdDetail))
      return this.fault('ELECTRONIC_TRADE_DOCUMENTS goes with etdDetail');
    if (details.holdAtLocationDetail) {
      const known = (fixture('locations.json') as any).output.locationDetailList.map((l: any) => l.locationId);
      if (!known.includes(details.holdAtLocationDetail.locationId))
        return refusal(400, 'HOLDATLOCATION.LOCATIONID.INVALID', 'The location cannot hold this shipment.');
    }
    const customs = from !== to && !(EU.has(from) && EU.has(to)) && ![from, to].every((c) => c === 'US' || c === 'PR');
    const clearance = shipment.customsClearanceDetail;
    if (customs && !clearance) return this.fault('customsClearanceDetail needed across a customs border');
    const documents: string[] = shipment.shippingDocumentSpecification?.shippingDocumentTypes ?? [];
    if (customs && !documents.includes('COMMERCIAL_INVOICE'))
      return this.fault('a commercial invoice is asked for across a customs border');
    if (clearance) {
      const currencies = new Set(
        clearance.commodities.flatMap((c: any) => [c.unitPrice?.currency, c.customsValue?.currency]).filter(Boolean),
      );
      if (currencies.size !== 1) return this.fault('commodities in one currency');
      if (clearance.commodities.some((c: any) => !c.countryOfManufacture || !c.harmonizedCode || !c.customsValue))
        return this.fault('commodities need countryOfManufacture, harmonizedCode and customsValue');
    }

    return null;
  }

  /** Validate Shipment: the same rules as Create Shipment, one piece, nothing booked; alerts in the answer. */
  private async validate(body: any): Promise<ScriptedReply> {
    if (body.requestedShipment.requestedPackageLineItems.length !== 1) return this.fault('validation takes a single-piece shipment only');
    const refused = this.refusal({ ...body, requestedShipment: { ...body.requestedShipment, totalPackageCount: 1 } });
    if (refused) return refused;
    const international = body.requestedShipment.shipper.address.countryCode !== body.requestedShipment.recipients[0].address.countryCode;
    return {
      body: {
        transactionId: 'local-fedex-validate',
        output: {
          alerts: [
            { code: 'SHIPMENT.VALIDATION.SUCCESS', alertType: 'NOTE', message: 'Shipment validated successfully. No errors found.' },
            ...(international
              ? [{ code: 'COMMODITY.WEIGHT.ESTIMATED', alertType: 'WARNING', message: 'Commodity weights were estimated.' }]
              : []),
          ],
        },
      },
    };
  }

  private async ship(body: any): Promise<ScriptedReply> {
    const refused = this.refusal(body);
    if (refused) return refused;
    const shipment = body.requestedShipment;
    const from = shipment.shipper.address.countryCode;
    const to = shipment.recipients[0].address.countryCode;
    const items = shipment.requestedPackageLineItems;
    const special: string[] = shipment.shipmentSpecialServices?.specialServiceTypes ?? [];
    const clearance = shipment.customsClearanceDetail;
    const documents: string[] = shipment.shippingDocumentSpecification?.shippingDocumentTypes ?? [];

    const pieces = items.map(() => this.trackingNumber());
    const master = pieces[0];
    const imageType = shipment.labelSpecification.imageType;
    const references = items.flatMap((i: any) => (i.customerReferences ?? []).map((r: any) => r.value));
    const labels = await Promise.all(pieces.map((number: string) => this.label(number, imageType)));
    this.booked.push({ master, pieces, references, imageType, labels, cancelled: false, body });
    const answer = {
      transactionId: `local-fedex-ship-${this.counter}`,
      output: {
        transactionShipments: [
          {
            serviceType: shipment.serviceType,
            shipDatestamp: shipment.shipDatestamp,
            serviceCategory: shipment.serviceType.includes('GROUND') ? 'GROUND' : 'EXPRESS',
            masterTrackingNumber: master,
            pieceResponses: await Promise.all(
              pieces.map(async (number: string, index: number) => ({
                masterTrackingNumber: master,
                trackingNumber: number,
                packageSequenceNumber: index + 1,
                packageDocuments: [
                  {
                    contentType: 'LABEL',
                    copiesToPrint: 1,
                    docType: imageType,
                    encodedLabel: labels[index].toString('base64'),
                  },
                ],
              })),
            ),
            ...(documents.includes('COMMERCIAL_INVOICE')
              ? {
                  shipmentDocuments: [
                    {
                      contentType: 'COMMERCIAL_INVOICE',
                      copiesToPrint: 3,
                      docType: 'PDF',
                      encodedLabel: (
                        await invoicePdf(
                          master,
                          clearance.commodities.map((c: any) => c.description),
                        )
                      ).toString('base64'),
                    },
                  ],
                }
              : {}),
            completedShipmentDetail: {
              masterTrackingId: { trackingIdType: 'FEDEX', trackingNumber: master },
              usDomestic: from === 'US' && to === 'US',
            },
          },
        ],
        alerts: special.includes('ELECTRONIC_TRADE_DOCUMENTS')
          ? [{ code: 'ETD.DOCUMENTS.SENT', alertType: 'NOTE', message: 'Trade documents were sent electronically.' }]
          : [],
      },
    };
    if (this.loseNextShipAnswer) {
      this.loseNextShipAnswer = false;
      // An invalid Content-Length: the client reads no answer, as after a connection broken mid-answer.
      return { status: 200, headers: { 'content-type': 'application/json', 'content-length': 'broken' }, body: JSON.stringify(answer) };
    }
    return { body: answer };
  }

  private async label(trackingNumber: string, imageType: string): Promise<Buffer> {
    if (imageType === 'PDF') return pdfLabel(trackingNumber);
    if (imageType === 'PNG') return pngLabel(trackingNumber);
    return Buffer.from(zplLabel(trackingNumber));
  }

  private cancel(body: any): ScriptedReply {
    if (body.accountNumber.value !== ACCOUNT)
      return refusal(400, 'ACCOUNTNUMBER.REGISTRATION.REQUIRED', 'Please enter a valid 9-digit FedEx account number.');
    const shipment = this.booked.find((s) => s.master === body.trackingNumber || s.pieces.includes(body.trackingNumber));
    if (!shipment) return { status: 400, body: fixture('cancel-refused.json') };
    if (shipment.cancelled)
      return {
        body: {
          transactionId: 'local-fedex-cancel',
          output: { cancelledShipment: false, cancelledHistory: false, message: 'Shipment was cancelled already.' },
        },
      };
    if (body.deletionControl !== 'DELETE_ALL_PACKAGES' && shipment.pieces.length > 1)
      return this.fault('cancel of a multi-piece shipment without DELETE_ALL_PACKAGES');
    shipment.cancelled = true;
    return {
      body: {
        transactionId: 'local-fedex-cancel',
        output: { cancelledShipment: true, cancelledHistory: true, message: 'Shipment is successfully cancelled' },
      },
    };
  }

  private locate(body: any): ScriptedReply {
    const criterion = body.locationSearchCriterion ?? 'ADDRESS';
    if (criterion === 'GEOGRAPHIC_COORDINATES' && !body.location.longLat)
      return refusal(400, 'ERROR.LONGLAT.REQUIRED', 'Coordinates are needed for this search.');
    if (criterion === 'ADDRESS' && !body.location.address.postalCode && !body.location.address.city)
      return this.fault('an address search needs a city or a postal code');
    if (body.location.address.countryCode !== 'US')
      return { body: { transactionId: 'local-fedex-loc', output: { totalResults: 0, resultsReturned: 0, locationDetailList: [] } } };
    return { body: fixture('locations.json') };
  }
}

export interface LocalFedexShip {
  server: CarrierServer;
  routes: FedexShipRoutes;
  kit: CarrierToolkit;
  adapter: FedexCarrier;
  close(): Promise<void>;
}

/** A local FedEx with booking routes and an adapter pointed at it. */
export async function localFedexShip(options: { shipClientId?: string } = {}): Promise<LocalFedexShip> {
  const server = await new CarrierServer().start();
  const routes = FedexShipRoutes.install(server, options);
  const kit = localToolkit('fdxglb', server.url);
  const adapter = new FedexCarrier(kit);
  let closed = false;
  return {
    server,
    routes,
    kit,
    adapter,
    async close() {
      if (closed) return;
      closed = true;
      await kit.http.close();
      await server.close();
    },
  };
}
