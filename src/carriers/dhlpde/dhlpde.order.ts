import { EU_COUNTRIES } from '../../core/eu-countries.js';
import type { BookRequest, CarrierFieldError } from '../booking.js';
import type { CarrierSettings } from '../carrier.js';
import { type FieldPath, type Origins, personName, readAddress } from './dhlpde.address.js';
import { readCommodities } from './dhlpde.customs.js';
import { type ParcelDeOptions, readMetadata } from './dhlpde.metadata.js';
import type { DhlConsignee, DhlCustoms, DhlOrder, DhlServices, DhlShipment } from './dhlpde.payload.js';
import { defaultProduct, PARCEL_DE_PRODUCTS, type ParcelDeProduct, productOf, servesDestination } from './dhlpde.products.js';
import { DEFAULT_PROFILE } from './dhlpde.settings.js';

/** An order ready to send, or the problems that keep it from being sent; and how DHL's answer maps back. */
export interface OrderPlan {
  order: DhlOrder;
  /** The query of `POST /orders`: label format and size, no inline validation, labels in the answer. */
  query: URLSearchParams;
  format: 'pdf' | 'zpl';
  product: string;
  /** Shipment-relative DHL paths (`consignee.postalCode`, `customs.items[0].hsCode`) → our fields. */
  origins: Origins;
  /** Our field of parcel `index`'s weight and dimensions. */
  parcelPath(index: number, what: 'weight' | 'dimensions'): FieldPath;
  problems: CarrierFieldError[];
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The product asked for (or the default for the destination), or a problem at `shipping_service`. */
export function chooseProduct(request: BookRequest, destination: string | null, problems: CarrierFieldError[]): ParcelDeProduct | null {
  const code = request.shipping_service ?? defaultProduct(request.type_of_shipment, destination);
  const product = productOf(code);
  const fitting = PARCEL_DE_PRODUCTS.filter((p) => p.types.includes(request.type_of_shipment)).map((p) => p.code);
  if (!product?.types.includes(request.type_of_shipment)) {
    problems.push({
      path: ['shipping_service'],
      message: `DHL Parcel DE books ${request.type_of_shipment} shipments as one of: ${fitting.join(', ')}.`,
    });
    return null;
  }
  if (request.type_of_shipment === 'outbound' && destination && !servesDestination(product, destination)) {
    const where = product.scope === 'domestic' ? 'within Germany' : product.scope === 'eu' ? 'to other EU countries' : 'abroad';
    problems.push({ path: ['shipping_service'], message: `${product.code} (${product.name}) goes ${where} only.` });
  }
  return product;
}

/** The billing number for the product: `carrier_metadata.billing_number`, else the configuration's; checked against the product. */
export function chooseBillingNumber(
  product: ParcelDeProduct,
  settings: CarrierSettings,
  options: ParcelDeOptions,
  problems: CarrierFieldError[],
): { number: string; path: FieldPath } | null {
  const configured = (settings.billing_numbers as Record<string, string> | undefined)?.[product.code];
  const number = options.billing_number ?? configured;
  const path: FieldPath = options.billing_number ? ['carrier_metadata', 'billing_number'] : ['carrier_reference'];
  if (!number) {
    problems.push({
      path: ['carrier_reference'],
      message: `No DHL billing number for ${product.code}: set settings.billing_numbers.${product.code} on the carrier configuration, or give carrier_metadata.billing_number.`,
    });
    return null;
  }
  if (number.slice(10, 12) !== product.procedure) {
    problems.push({
      path,
      message: `The billing number ${number} is for procedure ${number.slice(10, 12)}; ${product.code} is booked on procedure ${product.procedure} (digits 11 and 12).`,
    });
  }
  return { number, path };
}

function parcelPathFor(request: BookRequest) {
  // Several parcels come from carrier_metadata.parcels; one parcel is the shipment's own weight and dimensions.
  return (index: number, what: 'weight' | 'dimensions'): FieldPath =>
    request.parcels.length > 1 ? ['carrier_metadata', 'parcels', index, what] : [what];
}

/** A Packstation or post office from a search, as DHL's `Locker` or `PostOffice` consignee. */
function pudoConsignee(request: BookRequest, options: ParcelDeOptions, origins: Origins, problems: CarrierFieldError[]): DhlConsignee {
  const pudo = request.pudo_location!;
  const info = pudo.additional_info as { keyword_id?: unknown };
  const recipient = request.recipient ?? {};
  const field = request.recipient_field;
  const name = personName(recipient) ?? str(recipient.company);
  const namePath = [field, personName(recipient) ? 'first_name' : 'company'];
  if (!name) problems.push({ path: [field, 'first_name'], message: 'The recipient’s name is needed to deliver to a DHL pick-up point.' });
  else if (name.length > 50) problems.push({ path: namePath, message: 'DHL prints at most 50 characters of the name.' });
  if (pudo.address.country_code !== 'DE') {
    problems.push({ path: ['pudo_location_uuid'], message: 'DHL addresses Packstations and post offices directly in Germany only.' });
  }
  const number = Number(info.keyword_id);
  const locker = pudo.address.location_type === 'locker';
  const base = { name: (name ?? '').slice(0, 50), city: pudo.address.city, postalCode: pudo.address.postal_code, country: 'DEU' };
  Object.assign(origins, {
    '': ['pudo_location_uuid'],
    name: namePath,
    city: ['pudo_location_uuid'],
    postalCode: ['pudo_location_uuid'],
    postNumber: ['carrier_metadata', 'post_number'],
  });
  if (locker) {
    origins.lockerID = ['pudo_location_uuid'];
    if (!Number.isInteger(number) || number < 100 || number > 999) {
      problems.push({ path: ['pudo_location_uuid'], message: 'This Packstation has no number DHL can address.' });
    }
    if (!options.post_number) {
      problems.push({
        path: ['carrier_metadata', 'post_number'],
        message: 'A Packstation delivers to registered DHL customers only: give the recipient’s post number (Postnummer).',
      });
    }
    return { ...base, lockerID: number, postNumber: options.post_number ?? '' };
  }
  origins.retailID = ['pudo_location_uuid'];
  origins.email = [field, 'email'];
  if (!Number.isInteger(number) || number < 401 || number > 999) {
    problems.push({
      path: ['pudo_location_uuid'],
      message: 'DHL cannot address this pick-up point directly (no post office number 401–999).',
    });
  }
  const email = str(recipient.email);
  if (!options.post_number && !email) {
    problems.push({
      path: ['carrier_metadata', 'post_number'],
      message: 'To address a post office DHL needs the recipient’s post number (Postnummer) or e-mail address.',
    });
  }
  return { ...base, retailID: number, ...(options.post_number ? { postNumber: options.post_number } : email ? { email } : {}) };
}

export function prefixed(prefix: string, origins: Origins): Origins {
  // The key '' is the object itself (`consignee`), which DHL's validation messages often name alone.
  return Object.fromEntries(Object.entries(origins).map(([key, path]) => [key === '' ? prefix : `${prefix}.${key}`, path]));
}

/** DHL's customs details (CN23) from the line items and `carrier_metadata`. */
function customsFor(
  request: BookRequest,
  product: ParcelDeProduct,
  options: ParcelDeOptions,
  origins: Origins,
  problems: CarrierFieldError[],
) {
  const goods = readCommodities(request, { max: 99 });
  problems.push(...goods.problems);
  Object.assign(origins, prefixed('customs', goods.origins));
  const exportType = options.export_type ?? 'COMMERCIAL_GOODS';
  if (exportType === 'OTHER' && !options.export_description) {
    problems.push({ path: ['carrier_metadata', 'export_description'], message: 'DHL needs a description when export_type is OTHER.' });
  }
  if (options.shipping_conditions && product.code !== 'V54EPAK') {
    problems.push({ path: ['carrier_metadata', 'shipping_conditions'], message: 'Terms of trade apply to V54EPAK (DHL Europaket) only.' });
  }
  Object.assign(origins, {
    'customs.exportType': ['carrier_metadata', 'export_type'],
    'customs.exportDescription': ['carrier_metadata', 'export_description'],
    'customs.postalCharges': ['carrier_metadata', 'postal_charges'],
    'customs.invoiceNo': ['carrier_metadata', 'invoice_no'],
  });
  const customs: DhlCustoms = {
    exportType,
    ...(options.export_description ? { exportDescription: options.export_description } : {}),
    ...(options.invoice_no ? { invoiceNo: options.invoice_no } : {}),
    ...(options.shipping_conditions ? { shippingConditions: options.shipping_conditions } : {}),
    ...(options.shipper_customs_ref ? { shipperCustomsRef: options.shipper_customs_ref } : {}),
    ...(options.consignee_customs_ref ? { consigneeCustomsRef: options.consignee_customs_ref } : {}),
    postalCharges: options.postal_charges ?? { currency: goods.currency ?? 'EUR', value: 0 },
    items: goods.items,
  };
  return customs;
}

/**
 * Our outbound shipment as DHL's `POST /orders`: one DHL shipment per parcel (same product, addresses, services
 * and customs), the booking reference as `refNo`, and everything DHL would refuse that can be known here.
 */
export function planOrder(request: BookRequest, settings: CarrierSettings): OrderPlan {
  const { options, problems } = readMetadata(request.carrier_metadata);
  const origins: Origins = {};
  const pudo = request.pudo_location;
  const recipientCountry = pudo ? pudo.address.country_code : (str(request.recipient?.country_code)?.toUpperCase() ?? null);
  const product = chooseProduct(request, recipientCountry, problems);
  const billing = product ? chooseBillingNumber(product, settings, options, problems) : null;
  if (billing) origins.billingNumber = billing.path;
  origins.product = ['shipping_service'];

  const shipper = readAddress(request.sender, request.sender_field, { phone: false, role: 'shipper' });
  problems.push(...shipper.problems);
  Object.assign(origins, prefixed('shipper', shipper.origins));
  if (shipper.value.country && shipper.value.country !== 'DEU') {
    problems.push({ path: [request.sender_field, 'country_code'], message: 'DHL Parcel Germany ships from Germany only.' });
  }

  let consignee: DhlConsignee;
  if (pudo) {
    const pudoOrigins: Origins = {};
    consignee = pudoConsignee(request, options, pudoOrigins, problems);
    Object.assign(origins, prefixed('consignee', pudoOrigins));
  } else {
    const read = readAddress(request.recipient, request.recipient_field, { phone: recipientCountry !== 'DE', role: 'consignee' });
    problems.push(...read.problems);
    Object.assign(origins, prefixed('consignee', read.origins));
    consignee = read.value;
  }

  const parcelPath = parcelPathFor(request);
  request.parcels.forEach((parcel, index) => {
    if (parcel.weight_grams === null || !(parcel.weight_grams > 0)) {
      problems.push({ path: parcelPath(index, 'weight'), message: 'DHL needs the weight of every parcel (in g, above 0).' });
    } else if (product && parcel.weight_grams > product.max_weight_grams) {
      problems.push({
        path: parcelPath(index, 'weight'),
        message: `${product.code} (${product.name}) takes parcels up to ${product.max_weight_grams / 1000} kg.`,
      });
    }
  });

  const services: DhlServices = { ...options.services };
  for (const [dhl, ours] of Object.entries(SERVICE_FIELDS)) origins[`services.${dhl}`] = ['carrier_metadata', ours];
  if (options.return_label) {
    const returnBilling = settings.return_billing_number as string | undefined;
    origins['services.dhlRetoure'] = ['carrier_metadata', 'return_label'];
    if (!returnBilling) {
      problems.push({
        path: ['carrier_metadata', 'return_label'],
        message: 'A DHL Retoure label needs the configuration’s return_billing_number (procedure 07).',
      });
    }
    services.dhlRetoure = { billingNumber: returnBilling ?? '', refNo: request.booking_reference, returnAddress: { ...shipper.value } };
  }

  const abroad = recipientCountry !== null && recipientCountry !== 'DE';
  const customs =
    product && abroad && !EU_COUNTRIES.has(recipientCountry) ? customsFor(request, product, options, origins, problems) : null;

  const format = options.label_format ?? (settings.label_format === 'zpl' ? 'zpl' : 'pdf');
  const shipments: DhlShipment[] = request.parcels.map((parcel) => ({
    product: product?.code ?? String(request.shipping_service),
    billingNumber: billing?.number ?? '',
    refNo: request.booking_reference,
    ...(options.cost_center ? { costCenter: options.cost_center } : {}),
    shipDate: request.date,
    shipper: shipper.value,
    consignee,
    details: {
      weight: { uom: 'g', value: Math.max(1, Math.round(parcel.weight_grams ?? 0)) },
      ...(parcel.dimensions_cm
        ? {
            dim: {
              uom: 'cm',
              length: Math.ceil(parcel.dimensions_cm.length),
              width: Math.ceil(parcel.dimensions_cm.width),
              height: Math.ceil(parcel.dimensions_cm.height),
            },
          }
        : {}),
    },
    ...(Object.keys(services).length > 0 ? { services } : {}),
    ...(customs ? { customs } : {}),
  }));

  const query = new URLSearchParams({ docFormat: format === 'zpl' ? 'ZPL2' : 'PDF', includeDocs: 'include', combine: 'false' });
  if (settings.must_encode === true) query.set('mustEncode', 'true');
  if (typeof settings.print_format === 'string') {
    query.set('printFormat', settings.print_format);
    query.set('retourePrintFormat', settings.print_format);
  }
  return {
    order: { profile: typeof settings.profile === 'string' ? settings.profile : DEFAULT_PROFILE, shipments },
    query,
    format,
    product: product?.code ?? String(request.shipping_service),
    origins,
    parcelPath,
    problems,
  };
}

/** DHL's service names and the `carrier_metadata` options they come from. */
const SERVICE_FIELDS: Record<string, string> = {
  preferredNeighbour: 'preferred_neighbour',
  preferredLocation: 'preferred_location',
  preferredDay: 'preferred_day',
  visualCheckOfAge: 'visual_check_of_age',
  namedPersonOnly: 'named_person_only',
  noNeighbourDelivery: 'no_neighbour_delivery',
  signedForByRecipient: 'signed_for_by_recipient',
  additionalInsurance: 'additional_insurance',
  bulkyGoods: 'bulky_goods',
  premium: 'premium',
  closestDropPoint: 'closest_drop_point',
  endorsement: 'endorsement',
  parcelOutletRouting: 'parcel_outlet_routing',
  postalDeliveryDutyPaid: 'postal_delivery_duty_paid',
};
