import type { ReceivedRequest, ScriptedReply } from '../support/carrier-server.js';
import { postnlFixture } from './fixtures.js';
import { labellingProblems } from './postnl-labelling-schema.js';
import { API_KEY, type PostnlLocal, SETTINGS } from './postnl-server.js';

/**
 * The local PostNL's Barcode, Labelling, Shippingstatus-by-reference and Locations endpoints, on the same server
 * as tracking (one base URL, one `apikey`). It checks what it receives against the documented models
 * (`postnl-labelling-schema.ts`) and the rules PostNL's descriptions state, records what it found wrong in
 * `faults`, keeps the parcels it confirmed (so that status by reference and by barcode find them), refuses
 * postal codes it does not know as PostNL refuses an unknown address, and can lose the answer of the next
 * confirming label call after confirming.
 */

export const CUSTOMER = { customer_code: 'DEVC', customer_number: '11223344' } as const;
export const BOOKING_SETTINGS = { ...SETTINGS, ...CUSTOMER } as const;

export const BARCODE_PATH = '/shipment/v1_1/barcode';
export const LABEL_PATH = '/shipment/v2_2/label';
export const REFERENCE_PATH = /^\/shipment\/v2\/status\/reference\/[^/]+$/;
export const LOCATIONS_PATH = /^\/shipment\/v2_1\/locations\/nearest(\/geocode)?$/;

/** Postal codes the local PostNL does not know: a label to one is refused as PostNL refuses an unknown address. */
export const UNKNOWN_ZIPCODES = new Set(['9999ZZ']);

export interface ConfirmedAtPostnl {
  barcode: string;
  mainBarcode: string;
  counter: number;
  count: number;
  reference: string;
  product: string;
  shipment: any;
  printer: string;
  /** Status code PostNL gives it: 1 pre-alerted until PostNL receives it. */
  statusCode: string;
}

const fault = (status: number, code: string, error: string, description: string): ScriptedReply => ({
  status,
  body: { Errors: [{ Error: error, Code: code, Description: description }] },
});

/** A small PDF naming the barcode, as PostNL's label file stands in these tests. */
export function pdfLabel(barcode: string): Buffer {
  return Buffer.from(`%PDF-1.4\n% PostNL label ${barcode}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
}

export function zplLabel(barcode: string): string {
  return `^XA^FO40,40^BCN,120,Y,N,N^FD${barcode}^FS^XZ`;
}

export class PostnlShippingRoutes {
  readonly confirmed: ConfirmedAtPostnl[] = [];
  readonly issued = new Set<string>();
  readonly faults: string[] = [];
  /** The next confirming label call is confirmed, then its answer is broken mid-way. */
  loseNextLabelAnswer = false;
  private serial = 520_000_000;

  constructor(private readonly server: PostnlLocal) {}

  static install(server: PostnlLocal): PostnlShippingRoutes {
    const routes = new PostnlShippingRoutes(server);
    server.on('GET', BARCODE_PATH, (request) => routes.guarded(request, () => routes.barcode(request)));
    server.on('POST', LABEL_PATH, (request) => routes.guarded(request, () => routes.label(request)));
    server.on('GET', REFERENCE_PATH, (request) => routes.guarded(request, () => routes.byReference(request)));
    server.on('GET', LOCATIONS_PATH, (request) => routes.guarded(request, () => routes.locations(request)));
    server.bookedStatus = (barcode) => routes.statusOf(barcode);
    return routes;
  }

  labelCalls(confirm?: boolean): ReceivedRequest[] {
    return this.server.to(LABEL_PATH).filter((r) => confirm === undefined || r.query.get('confirm') === String(confirm));
  }

  /** PostNL scanned the parcel at collection (status 3): it can no longer be withdrawn. */
  receive(barcode: string): void {
    for (const parcel of this.confirmed) if (parcel.barcode === barcode) parcel.statusCode = '3';
  }

  private guarded(request: ReceivedRequest, handle: () => ScriptedReply): ScriptedReply {
    if (request.headers.apikey !== API_KEY) return { status: 401, body: { fault: { faultstring: 'Invalid ApiKey' } } };
    return handle();
  }

  private rule(text: string): ScriptedReply {
    this.faults.push(text);
    return fault(400, '0', 'Invalid request', text);
  }

  private barcode(request: ReceivedRequest): ScriptedReply {
    const q = request.query;
    const code = q.get('CustomerCode');
    if (!code || !q.get('CustomerNumber') || !q.get('Type')) return this.rule('CustomerCode, CustomerNumber and Type are required');
    if (!['2S', '3S', 'CC', 'CP', 'CD', 'CF', 'LA', 'RI', 'UE'].includes(q.get('Type') ?? ''))
      return this.rule(`unknown barcode type ${q.get('Type')}`);
    if (code !== CUSTOMER.customer_code || q.get('CustomerNumber') !== CUSTOMER.customer_number)
      return { status: 400, body: { errors: [{ ErrorMsg: 'Customer not found', ErrorNumber: '13' }] } };
    const barcode = `${q.get('Type')}${code}${++this.serial}`;
    this.issued.add(barcode);
    return { body: { Barcode: barcode } };
  }

  private label(request: ReceivedRequest): ScriptedReply {
    const confirm = request.query.get('confirm') !== 'false';
    if (!String(request.headers['content-type']).startsWith('application/json')) this.faults.push('label: not JSON');
    let body: any;
    try {
      body = JSON.parse(request.body);
    } catch {
      return this.rule('label: body is not JSON');
    }
    const problems = labellingProblems(body);
    if (problems.length > 0) return this.rule(`label: ${problems.join('; ')}`);
    if (body.Customer.CustomerCode !== CUSTOMER.customer_code || body.Customer.CustomerNumber !== CUSTOMER.customer_number)
      return this.rule('label: customer code and number of another contract');
    const shipments: any[] = body.Shipments;
    const customerSender = body.Customer.Address !== undefined;
    for (const shipment of shipments) {
      const broken = this.shipmentRules(shipment, customerSender, shipments.length);
      if (broken) return this.rule(`label ${shipment.Barcode}: ${broken}`);
    }
    for (const shipment of shipments) {
      const receiver = shipment.Addresses.find((a: any) => a.AddressType === '01');
      if (UNKNOWN_ZIPCODES.has(receiver.Zipcode))
        return fault(
          400,
          '1280203',
          `Validation failed for shipment: ${shipment.Barcode}`,
          'Zipcode and house number combination unknown for address type Receiver',
        );
    }
    if (confirm) {
      for (const [index, shipment] of shipments.entries()) {
        if (this.confirmed.some((c) => c.barcode === shipment.Barcode)) this.faults.push(`barcode ${shipment.Barcode} confirmed twice`);
        const group = shipment.Groups?.[0];
        this.confirmed.push({
          barcode: shipment.Barcode,
          mainBarcode: group?.MainBarcode ?? shipment.Barcode,
          counter: group?.GroupSequence ?? index + 1,
          count: group?.GroupCount ?? 1,
          reference: shipment.Reference,
          product: shipment.ProductCodeDelivery,
          shipment,
          printer: body.Message.Printertype,
          statusCode: '1',
        });
      }
    }
    const zpl = String(body.Message.Printertype).startsWith('Zebra');
    const answer = {
      MergedLabels: [],
      ResponseShipments: shipments.map((shipment) => ({
        Barcode: shipment.Barcode,
        ProductCodeDelivery: shipment.ProductCodeDelivery,
        Errors: [],
        Warnings: [],
        Labels: [
          {
            Content: (zpl ? Buffer.from(zplLabel(shipment.Barcode)) : pdfLabel(shipment.Barcode)).toString('base64'),
            Labeltype: 'Label',
            OutputType: zpl ? 'ZPL' : 'PDF',
          },
        ],
      })),
    };
    if (confirm && this.loseNextLabelAnswer) {
      this.loseNextLabelAnswer = false;
      // An invalid Content-Length: the client reads no answer, as after a connection broken mid-answer.
      return { status: 200, headers: { 'content-type': 'application/json', 'content-length': 'broken' }, body: JSON.stringify(answer) };
    }
    return { body: answer };
  }

  /** The rules PostNL's model descriptions state in words; the first one broken, or null. */
  private shipmentRules(shipment: any, customerSender: boolean, count: number): string | null {
    if (!this.issued.has(shipment.Barcode)) return 'barcode not issued by the barcode service';
    const addresses: any[] = shipment.Addresses;
    const byType = (type: string) => addresses.filter((a) => a.AddressType === type);
    if (byType('01').length !== 1) return 'one receiver address (01) is required';
    if (!customerSender && byType('02').length !== 1) return 'address 02 is mandatory, in the Customer or in every Shipment';
    for (const a of addresses) {
      if (!a.Name && !a.CompanyName) return `address ${a.AddressType}: Name or CompanyName is required`;
      if (!a.Street && !a.StreetHouseNrExt) return `address ${a.AddressType}: Street or StreetHouseNrExt is required`;
      if (['NL', 'BE', 'LU'].includes(a.Countrycode)) {
        if (!a.Zipcode) return `address ${a.AddressType}: Zipcode is mandatory in the Benelux`;
        if (a.Countrycode === 'NL' && !/^[1-9]\d{3}[A-Z]{2}$/.test(a.Zipcode)) return `address ${a.AddressType}: a Dutch Zipcode is 1234AB`;
        if (a.Street && !/^\d{1,5}$/.test(a.HouseNr ?? ''))
          return `address ${a.AddressType}: HouseNr is numeric, at most 5 digits, in the Benelux`;
      }
    }
    const point = byType('09');
    if (point.length > 0) {
      if (shipment.DeliveryAddress !== '09') return 'DeliveryAddress is mandatory when AddressType 09 is given';
      if (!point[0].CompanyName) return 'CompanyName is mandatory when AddressType is 09';
      if (!['3533', '3534', '3543', '3544'].includes(shipment.ProductCodeDelivery))
        return 'address 09 with a product that is not for pick-up';
    } else if (['3533', '3534', '3543', '3544'].includes(shipment.ProductCodeDelivery)) return 'a pick-up product needs address 09';
    const options: any[] = shipment.ProductOptions ?? [];
    if (options.some((o) => o.Characteristic === '152' && o.Option === '025')) {
      if (shipment.ProductCodeDelivery !== '2285') return 'Smart Returns (152/025) is for product 2285';
      if (!shipment.Contacts?.some((c: any) => c.ContactType === '01' && c.Email)) return 'Smart Returns needs the receiver contact e-mail';
    }
    if (count > 1) {
      const group = shipment.Groups?.[0];
      if (group?.GroupType !== '03' || !group.GroupCount || !group.GroupSequence)
        return 'several shipments of one parcel each: multi-collo Groups (03) with sequence and count';
      if (group.GroupCount !== count) return 'GroupCount is not the number of shipments';
    }
    return null;
  }

  private status(parcel: ConfirmedAtPostnl): unknown {
    return {
      Barcode: parcel.barcode,
      MainBarcode: parcel.mainBarcode,
      ShipmentAmount: String(parcel.count),
      ShipmentCounter: String(parcel.counter),
      ProductCode: parcel.product,
      Reference: parcel.reference,
      Status: {
        TimeStamp: '29-11-2026 10:00:00',
        StatusCode: parcel.statusCode,
        StatusDescription: parcel.statusCode === '1' ? 'Shipment pre-alerted' : 'Shipment collected',
        PhaseCode: '1',
        PhaseDescription: 'Collection',
      },
    };
  }

  /** Asked by a multi-collo shipment's main barcode, PostNL lists every parcel of it (as multi-piece.json does). */
  statusOf(barcode: string): unknown {
    const parcel = this.confirmed.find((c) => c.barcode === barcode);
    if (!parcel) return undefined;
    const parcels = parcel.mainBarcode === barcode ? this.confirmed.filter((c) => c.mainBarcode === barcode) : [parcel];
    return { CurrentStatus: { Shipment: parcels.length === 1 ? this.status(parcel) : parcels.map((p) => this.status(p)) } };
  }

  private byReference(request: ReceivedRequest): ScriptedReply {
    if (request.query.get('customerCode') !== CUSTOMER.customer_code || request.query.get('customerNumber') !== CUSTOMER.customer_number)
      return this.rule('status by reference: customerCode and customerNumber are required');
    const reference = decodeURIComponent(request.path.split('/').pop() ?? '');
    const parcels = this.confirmed.filter((c) => c.reference === reference);
    if (parcels.length === 0) return { body: postnlFixture('not-found') };
    return { body: { CurrentStatus: { Shipment: parcels.map((p) => this.status(p)) } } };
  }

  private locations(request: ReceivedRequest): ScriptedReply {
    const q = request.query;
    if (!['NL', 'BE'].includes(q.get('CountryCode') ?? '')) return this.rule('locations: CountryCode NL or BE is required');
    if (q.get('DeliveryDate') && !/^[0-3]\d-[0-1]\d-[1-2]\d{3}$/.test(q.get('DeliveryDate') ?? ''))
      return this.rule('locations: DeliveryDate is dd-MM-yyyy');
    for (const option of q.getAll('DeliveryOptions'))
      if (!['PG', 'PA', 'PG_EX'].includes(option)) return this.rule(`locations: DeliveryOptions ${option}`);
    if (request.path.endsWith('/geocode')) {
      if (!Number.isFinite(Number(q.get('Latitude'))) || !Number.isFinite(Number(q.get('Longitude'))))
        return this.rule('locations: Latitude and Longitude are required');
    } else if (!/^[0-9]{4}([A-Z]{2})?$/.test(q.get('PostalCode') ?? '')) {
      return this.rule('locations: PostalCode is 1234 or 1234AB');
    }
    if (q.get('PostalCode') === '9999') return { body: { GetLocationsResult: {} } };
    return { body: postnlFixture('locations') };
  }
}
