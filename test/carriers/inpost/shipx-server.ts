import type { CarrierServer, ReceivedRequest, ScriptedReply } from '../support/carrier-server.js';
import { API_TOKEN } from './inpost-server.js';
import { createProblems } from './shipx-schema.js';

/**
 * The local ShipX's booking and Points endpoints, on the same server as tracking (one base URL): shipments
 * created in the simplified mode and confirmed asynchronously (`created` until read `confirmAfterReads` times,
 * then `confirmed` with tracking numbers), labels, cancellation of shipments not yet bought, the organization's
 * shipment list, and the public Points search. Requests are checked against our schema of ShipX's forms
 * (`shipx-schema.ts`) and the rules InPost's pages state; what was wrong is kept in `faults`. Its answers and
 * error bodies follow the documented shapes (`{ status, error, message, details }`).
 */

export const ORGANIZATION_ID = '48213';
export const BOOKING_SETTINGS = { api_token: API_TOKEN, organization_id: ORGANIZATION_ID, environment: 'sandbox' } as const;
export const CREATE_PATH = `/v1/organizations/${ORGANIZATION_ID}/shipments`;
export const SHIPMENT_PATH = /^\/v1\/shipments\/[^/]+$/;
export const LABEL_PATH = /^\/v1\/shipments\/[^/]+\/label$/;
export const POINTS_PATH = '/v1/points';
/** A post code our local ShipX does not know: its refusal names `receiver.address.post_code`. */
export const UNKNOWN_POST_CODE = '99-999';

const SERVICES = [
  'inpost_locker_standard',
  'inpost_courier_standard',
  'inpost_courier_express_1000',
  'inpost_courier_express_1200',
  'inpost_courier_express_1700',
];

export interface LocalPoint {
  name: string;
  type: string[];
  status: string;
  lat: number;
  lng: number;
  line1: string;
  post_code: string;
  city: string;
  functions: string[];
  location_247: boolean;
  opening_hours: string;
}

/** Points around Kraków's market square (50.0617, 19.9373); KRA77Z is out of operation. */
export const POINTS: LocalPoint[] = [
  {
    name: 'KRA010',
    type: ['parcel_locker'],
    status: 'Operating',
    lat: 50.0625,
    lng: 19.9381,
    line1: 'Floriańska 14',
    post_code: '31-019',
    city: 'Kraków',
    functions: ['parcel_collect', 'parcel_send'],
    location_247: true,
    opening_hours: '24/7',
  },
  {
    name: 'KRA22M',
    type: ['parcel_locker'],
    status: 'Operating',
    lat: 50.0551,
    lng: 19.9352,
    line1: 'Stradomska 7',
    post_code: '31-058',
    city: 'Kraków',
    functions: ['parcel_collect'],
    location_247: true,
    opening_hours: '24/7',
  },
  {
    name: 'POP-KRA45',
    type: ['pop', 'parcel_locker_superpop'],
    status: 'Operating',
    lat: 50.0702,
    lng: 19.9448,
    line1: 'Długa 30',
    post_code: '31-146',
    city: 'Kraków',
    functions: ['parcel_collect', 'parcel_send'],
    location_247: false,
    opening_hours: 'pn-pt 08:00-20:00, sb 09:00-14:00',
  },
  {
    name: 'KRA77Z',
    type: ['parcel_locker'],
    status: 'NonOperating',
    lat: 50.0612,
    lng: 19.9366,
    line1: 'Rynek Główny 1',
    post_code: '31-042',
    city: 'Kraków',
    functions: ['parcel_collect', 'parcel_send'],
    location_247: true,
    opening_hours: '24/7',
  },
  {
    name: 'WAW01A',
    type: ['parcel_locker'],
    status: 'Operating',
    lat: 52.2297,
    lng: 21.0122,
    line1: 'Marszałkowska 100',
    post_code: '00-026',
    city: 'Warszawa',
    functions: ['parcel_collect', 'parcel_send'],
    location_247: true,
    opening_hours: '24/7',
  },
];

/** Where a post code lies, for `relative_post_code` searches. */
const POST_CODES: Record<string, [number, number]> = { '31-042': [50.0617, 19.9373], '00-026': [52.2297, 21.0122] };

export interface ShipmentAtShipx {
  id: number;
  status: string;
  tracking_number: string | null;
  service: string;
  reference: string | null;
  is_return: boolean;
  parcels: Array<{ id: string; tracking_number: string | null }>;
  created_at: string;
  reads: number;
  body: any;
}

/** A PDF file of one page naming the label's number: enough for the checks of a label file. */
export function pdfLabel(number: string): Buffer {
  return Buffer.from(
    `%PDF-1.4\n% InPost label ${number}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
    'latin1',
  );
}

export function zplLabel(number: string): string {
  return `^XA^FO40,40^A0N,40,40^FDInPost ${number}^FS^XZ`;
}

const locker = (body: any) => body.service === 'inpost_locker_standard';

const refuse = (status: number, error: string, message: string, details: unknown = {}): ScriptedReply => ({
  status,
  body: { status, error, message, details },
});

function distance(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const dLat = (b[0] - a[0]) * rad;
  const dLng = (b[1] - a[1]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

export class ShipxRoutes {
  readonly shipments: ShipmentAtShipx[] = [];
  readonly faults: string[] = [];
  /** Reads of a shipment before ShipX shows it bought (`confirmed`); Infinity keeps it `created`. */
  confirmAfterReads = 1;
  /** The next create is made, then its answer is broken mid-way (the client reads no answer). */
  loseNextCreateAnswer = false;
  /** The offer of the next create cannot be bought: ShipX leaves it `offers_prepared` with the reason. */
  failNextOffer: string | null = null;
  private counter = 0;

  constructor(private readonly server: CarrierServer) {}

  static install(server: CarrierServer): ShipxRoutes {
    const routes = new ShipxRoutes(server);
    server.on('POST', /^\/v1\/organizations\/[^/]+\/shipments$/, (r) => routes.authorized(r, () => routes.create(r)));
    server.on('GET', /^\/v1\/organizations\/[^/]+\/shipments$/, (r) => routes.authorized(r, () => routes.list(r)));
    server.on('GET', LABEL_PATH, (r) => routes.authorized(r, () => routes.label(r)));
    server.on('GET', SHIPMENT_PATH, (r) => routes.authorized(r, () => routes.read(r)));
    server.on('DELETE', SHIPMENT_PATH, (r) => routes.authorized(r, () => routes.cancel(r)));
    server.on('GET', POINTS_PATH, (r) => routes.points(r));
    return routes;
  }

  createCalls(): ReceivedRequest[] {
    return this.server.requests.filter((r) => r.method === 'POST' && r.path === CREATE_PATH);
  }

  find(id: string | number): ShipmentAtShipx | undefined {
    return this.shipments.find((s) => String(s.id) === String(id));
  }

  /** Marks a shipment bought now (as ShipX does by itself a moment after creating it). */
  confirm(shipment: ShipmentAtShipx): void {
    if (shipment.status !== 'created' && shipment.status !== 'offers_prepared') return;
    shipment.status = 'confirmed';
    shipment.parcels.forEach((parcel, index) => {
      parcel.tracking_number = `6${String(shipment.id).padStart(11, '0')}${String(index + 1).padStart(12, '0')}`;
    });
    shipment.tracking_number = shipment.parcels[0].tracking_number;
  }

  private authorized(request: ReceivedRequest, handle: () => ScriptedReply): ScriptedReply {
    if (request.headers.authorization !== `Bearer ${API_TOKEN}`) return refuse(401, 'token_invalid', 'Token is invalid');
    const org = /^\/v1\/organizations\/([^/]+)\//.exec(request.path)?.[1];
    if (org !== undefined && org !== ORGANIZATION_ID) return refuse(403, 'forbidden', 'The access token does not allow this organization');
    return handle();
  }

  private create(request: ReceivedRequest): ScriptedReply {
    if (!String(request.headers['content-type']).startsWith('application/json')) this.faults.push('create: not JSON');
    let body: any;
    try {
      body = JSON.parse(request.body);
    } catch {
      return refuse(400, 'invalid_json', 'The body is not JSON');
    }
    const problems = createProblems(body);
    if (problems.length > 0) {
      this.faults.push(...problems.map((p) => `create ${p}`));
      return refuse(400, 'validation_failed', 'There are some validation errors. Check details object for more info.', {
        body: problems,
      });
    }
    const details = this.rules(body);
    if (Object.keys(details).length > 0)
      return refuse(400, 'validation_failed', 'There are some validation errors. Check details object for more info.', details);
    const id = 700_000 + ++this.counter;
    // "If a parcel point is specified as a collection point ... the service will be changed".
    const service =
      locker(body) && String(body.custom_attributes.target_point).startsWith('POP-')
        ? 'inpost_locker_customer_service_point'
        : body.service;
    const shipment: ShipmentAtShipx = {
      id,
      status: 'created',
      tracking_number: null,
      service,
      reference: body.reference ?? null,
      is_return: body.is_return === true,
      parcels: body.parcels.map((parcel: any, index: number) => ({ id: parcel.id ?? String(index + 1), tracking_number: null })),
      created_at: new Date().toISOString(),
      reads: 0,
      body,
    };
    this.shipments.push(shipment);
    const answer = this.resource(shipment);
    if (this.failNextOffer) {
      shipment.status = 'offers_prepared';
      shipment.body = { ...body, unavailable: this.failNextOffer };
      this.failNextOffer = null;
    }
    if (this.loseNextCreateAnswer) {
      this.loseNextCreateAnswer = false;
      return { status: 201, headers: { 'content-type': 'application/json', 'content-length': 'broken' }, body: JSON.stringify(answer) };
    }
    return { status: 201, body: answer };
  }

  /** The documented rules beyond the forms' shapes, answered as ShipX's `details` (nested forms in lists). */
  private rules(body: any): Record<string, unknown> {
    const details: Record<string, unknown> = {};
    if (!SERVICES.includes(body.service)) details.service = ['invalid'];
    const locker = body.service === 'inpost_locker_standard';
    const receiver = body.receiver ?? {};
    const receiverErrors: Record<string, unknown> = {};
    if (locker) {
      if (!receiver.phone) receiverErrors.phone = ['required'];
      if (!receiver.email) receiverErrors.email = ['required'];
      const target = body.custom_attributes?.target_point;
      if (!target) details.custom_attributes = [{ target_point: ['required'] }];
      else if (!POINTS.some((p) => p.name === target && p.status === 'Operating'))
        details.custom_attributes = [{ target_point: ['does_not_exist'] }];
      if (body.parcels.length !== 1) this.faults.push('create: a locker shipment of several parcels');
    } else {
      if (!receiver.address) receiverErrors.address = ['required'];
      if (!receiver.company_name && !(receiver.first_name && receiver.last_name)) receiverErrors.first_name = ['required'];
    }
    if (receiver.address?.post_code === UNKNOWN_POST_CODE) receiverErrors.address = [{ post_code: ['invalid'] }];
    if (Object.keys(receiverErrors).length > 0) details.receiver = [receiverErrors];
    if (body.parcels.length > 1 && body.parcels.some((p: any) => !p.id)) this.faults.push('create: several parcels without ids');
    if (body.is_return === true && !body.sender) this.faults.push('create: a return without its sender');
    return details;
  }

  private resource(shipment: ShipmentAtShipx): Record<string, unknown> {
    const unavailable = shipment.body.unavailable as string | undefined;
    return {
      href: `${this.server.url}/v1/shipments/${shipment.id}`,
      id: shipment.id,
      status: shipment.status,
      tracking_number: shipment.tracking_number,
      service: shipment.service,
      reference: shipment.reference,
      is_return: shipment.is_return,
      receiver: shipment.body.receiver,
      sender: shipment.body.sender ?? null,
      custom_attributes: shipment.body.custom_attributes ?? {},
      parcels: shipment.parcels.map((parcel) => ({ id: parcel.id, tracking_number: parcel.tracking_number })),
      offers: unavailable
        ? [{ id: 1, service: { id: shipment.service }, status: 'unavailable', unavailability_reasons: [unavailable] }]
        : shipment.status === 'created'
          ? []
          : [{ id: 1, service: { id: shipment.service }, status: 'bought' }],
      created_at: shipment.created_at,
      updated_at: new Date().toISOString(),
    };
  }

  private read(request: ReceivedRequest): ScriptedReply {
    const shipment = this.find(request.path.split('/').pop() ?? '');
    if (!shipment) return refuse(404, 'resource_not_found', 'Resource you are looking for are not found');
    shipment.reads++;
    if (!shipment.body.unavailable && shipment.reads >= this.confirmAfterReads) this.confirm(shipment);
    return { body: this.resource(shipment) };
  }

  private label(request: ReceivedRequest): ScriptedReply {
    const shipment = this.find(request.path.split('/').at(-2) ?? '');
    if (!shipment) return refuse(404, 'resource_not_found', 'Resource you are looking for are not found');
    if (shipment.status !== 'confirmed' || !shipment.tracking_number)
      return refuse(400, 'invalid_action', 'The label is available for bought shipments only');
    const format = request.query.get('format') ?? 'Pdf';
    const type = request.query.get('type');
    if (!['Pdf', 'Zpl', 'Epl'].includes(format)) this.faults.push(`label: format ${format}`);
    if (type !== null && !['normal', 'A6'].includes(type)) this.faults.push(`label: type ${type}`);
    const numbers = shipment.parcels.map((p) => p.tracking_number).join(',');
    if (format === 'Zpl') return { headers: { 'content-type': 'application/octet-stream' }, body: zplLabel(numbers) };
    return { headers: { 'content-type': 'application/pdf' }, body: pdfLabel(numbers) };
  }

  private cancel(request: ReceivedRequest): ScriptedReply {
    const shipment = this.find(request.path.split('/').pop() ?? '');
    if (!shipment) return refuse(404, 'resource_not_found', 'Resource you are looking for are not found');
    if (shipment.status !== 'created' && shipment.status !== 'offers_prepared')
      return refuse(400, 'invalid_action', 'Action is not allowed for shipment in this status');
    shipment.status = 'canceled';
    return { status: 204 };
  }

  private list(request: ReceivedRequest): ScriptedReply {
    const known = ['created_at_gteq', 'service', 'page', 'per_page', 'status', 'tracking_number', 'id'];
    for (const key of request.query.keys()) if (!known.includes(key)) this.faults.push(`list: ${key} is no documented filter`);
    const since = request.query.get('created_at_gteq');
    const service = request.query.get('service');
    const page = Number(request.query.get('page') ?? '1');
    const perPage = Number(request.query.get('per_page') ?? '25');
    const matching = this.shipments
      .filter((s) => !since || s.created_at >= since)
      .filter((s) => !service || service.split(',').includes(s.service))
      .sort((a, b) => b.id - a.id);
    const items = matching.slice((page - 1) * perPage, page * perPage).map((s) => this.resource(s));
    return { body: { href: `${this.server.url}${request.url}`, count: matching.length, page, per_page: perPage, items } };
  }

  private points(request: ReceivedRequest): ScriptedReply {
    const relative = request.query.get('relative_point');
    const postCode = request.query.get('relative_post_code');
    const center: [number, number] | undefined = relative
      ? (relative.split(',').map(Number) as [number, number])
      : postCode
        ? POST_CODES[postCode]
        : undefined;
    if (relative && (!center || center.some((c) => !Number.isFinite(c)))) return refuse(400, 'invalid_parameter', 'relative_point');
    const maxDistance = Number(request.query.get('max_distance') ?? 'Infinity');
    const type = request.query.get('type');
    const perPage = Number(request.query.get('per_page') ?? '25');
    // `parcel_locker` also lists the ParcelPoints a locker parcel can be sent to ("parcel_locker_superpop").
    const found = POINTS.filter(
      (p) => !type || p.type.includes(type) || (type === 'parcel_locker' && p.type.includes('parcel_locker_superpop')),
    )
      .map((p) => ({ point: p, distance: center ? Math.round(distance(center, [p.lat, p.lng])) : null }))
      .filter((p) => p.distance === null || p.distance <= maxDistance)
      .filter(() => center !== undefined || !postCode)
      .sort((a, b) => (a.distance ?? 0) - (b.distance ?? 0));
    const items = found.slice(0, perPage).map(({ point, distance }) => ({
      href: `${this.server.url}/v1/points/${point.name}`,
      name: point.name,
      type: point.type,
      status: point.status,
      location: { latitude: point.lat, longitude: point.lng },
      location_type: 'Outdoor',
      location_description: 'przy wejściu',
      distance,
      opening_hours: point.opening_hours,
      address: { line1: point.line1, line2: `${point.post_code} ${point.city}` },
      address_details: {
        city: point.city,
        province: 'małopolskie',
        post_code: point.post_code,
        street: point.line1.replace(/\s+\d+$/, ''),
        building_number: /\d+$/.exec(point.line1)?.[0] ?? null,
        flat_number: null,
      },
      functions: point.functions,
      location_247: point.location_247,
    }));
    return { body: { href: `${this.server.url}${request.url}`, count: found.length, page: 1, per_page: perPage, items } };
  }
}
