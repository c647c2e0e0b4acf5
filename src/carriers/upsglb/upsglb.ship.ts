import type { LabelFormat } from '../../documents/label.types.js';
import type { BookRequest } from '../booking.js';
import type { CarrierSettings } from '../carrier.js';
import { goodsDescription, UPS_PRODUCTS, unitValue } from './upsglb.booking.js';
import { base64Bytes, type Json, many, numeric, object, text } from './upsglb.json.js';
import { upsMessages } from './upsglb.mapper.js';
import {
  addressAt,
  attentionOf,
  countryOf,
  linesOf,
  nameOf,
  needsCustoms,
  partiesOf,
  phoneDigits,
  postalOf,
  upsDimensions,
  upsWeight,
  usesImperialUnits,
} from './upsglb.parties.js';
import type { UpsMessage } from './upsglb.payload.js';

/**
 * Our booking request → UPS's `ShipmentRequest` (`POST /api/shipments/{version}/ship`), and UPS's
 * `ShipmentResponse` → what we keep. Pure. Field names, codes and limits: Shipping.yaml
 * (UPS-API/api-documentation, MIT); docs/carriers/upsglb.md says which field comes from where.
 */

/** The Ship API version in the path (Shipping.yaml: "Valid values: v2409"). */
export const SHIP_VERSION = 'v2409';
/** Return Service 9: UPS Print Return Label (PRL), the label the consumer prints. */
export const PRINT_RETURN_LABEL = '9';
/** Packaging 02: Customer Supplied Package. */
const CUSTOMER_PACKAGE = '02';

function clip(value: string, max: number): string {
  return value.length > max ? value.slice(0, max) : value;
}

/** Splits a text into at most `count` pieces of `size` characters (UPS's repeated description lines). */
function pieces(value: string, size: number, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < value.length && out.length < count; i += size) out.push(value.slice(i, i + size).trim());
  return out.filter(Boolean);
}

/** A party (`Shipper`, `ShipTo`, `ShipFrom`) from one of our addresses. */
function party(address: Record<string, unknown>): Json {
  const phone = phoneDigits(address);
  const email = typeof address.email === 'string' ? address.email.trim() : '';
  const state = typeof address.state_or_province === 'string' ? address.state_or_province.trim().toUpperCase() : '';
  const postal = postalOf(address);
  return {
    Name: clip(nameOf(address), 35),
    AttentionName: clip(attentionOf(address), 35),
    ...(phone ? { Phone: { Number: phone } } : {}),
    ...(email ? { EMailAddress: email } : {}),
    Address: {
      AddressLine: linesOf(address).map((line) => line.text),
      City: typeof address.city === 'string' ? address.city.trim() : '',
      ...(state ? { StateProvinceCode: state } : {}),
      ...(postal ? { PostalCode: postal } : {}),
      CountryCode: countryOf(address),
    },
  };
}

/** The Access Point as `AlternateDeliveryAddress`, with the addressee's name as attention. */
function accessPoint(request: BookRequest): Json | null {
  const point = request.pudo_location;
  if (!point) return null;
  const a = point.address;
  const postal = postalOf({ postal_code: a.postal_code, country_code: a.country_code });
  const state = a.state_or_province?.trim();
  return {
    Name: clip(a.address_name || a.line1, 35),
    AttentionName: clip(attentionOf(request.recipient ?? {}) || a.address_name, 35),
    UPSAccessPointID: point.pudo_location_id,
    Address: {
      AddressLine: [a.line1, a.line2, a.line3].filter((l): l is string => Boolean(l?.trim())).map((l) => clip(l.trim(), 35)),
      City: clip(a.city, 30),
      ...(state ? { StateProvinceCode: clip(state, 5) } : {}),
      ...(postal ? { PostalCode: postal } : {}),
      CountryCode: a.country_code.toUpperCase(),
    },
  };
}

/** The commercial invoice (returns: the partial invoice, the only form a return may carry). */
function internationalForms(request: BookRequest, shipTo: Record<string, unknown>): Json {
  const isReturn = request.type_of_shipment === 'return';
  const option = (key: string) => request.carrier_metadata[key] as string | undefined;
  const currency = String(request.line_items.find((item) => item.currency_code)?.currency_code ?? request.shipment_value?.currency ?? '');
  const soldTo = party(shipTo);
  return {
    FormType: [isReturn ? '05' : '01'],
    ...(isReturn
      ? {}
      : {
          InvoiceNumber: clip(option('invoice_number') ?? request.shipment_reference ?? request.shipment_id, 35),
          InvoiceDate: request.date.replace(/-/g, ''),
          Contacts: {
            SoldTo: { Name: soldTo.Name, AttentionName: soldTo.AttentionName, ...pick(soldTo, 'Phone'), Address: soldTo.Address },
          },
        }),
    ReasonForExport: option('reason_for_export') ?? (isReturn ? 'RETURN' : 'SALE'),
    ...(option('terms_of_shipment') ? { TermsOfShipment: option('terms_of_shipment') } : {}),
    CurrencyCode: currency.toUpperCase(),
    Product: request.line_items.map((item, index) => ({
      Description: pieces(String(item.customs_description ?? item.product_name ?? '').trim(), 35, 3),
      Unit: {
        Number: String(typeof item.quantity === 'number' && item.quantity > 0 ? item.quantity : 1),
        UnitOfMeasurement: { Code: 'PCS' },
        Value: (unitValue(item) ?? 0).toFixed(2),
      },
      CommodityCode: String(item.hs_code ?? '').replace(/[\s.]/g, ''),
      OriginCountryCode: String(item.product_origin_country_code ?? '').toUpperCase(),
      PartNumber: clip(String(item.product_reference ?? item.product_id ?? index + 1), 35),
    })),
  };
}

function pick(source: Json, key: string): Json {
  return source[key] === undefined ? {} : { [key]: source[key] };
}

/** The value of the goods: the shipment's value, else the sum of its line items. */
function goodsValue(request: BookRequest): { amount: number; currency: string } | null {
  if (request.shipment_value) return request.shipment_value;
  let amount = 0;
  let currency = '';
  for (const item of request.line_items) {
    const unit = unitValue(item);
    if (unit === null) continue;
    amount += unit * (typeof item.quantity === 'number' && item.quantity > 0 ? item.quantity : 1);
    currency ||= String(item.currency_code ?? '');
  }
  return amount > 0 && currency ? { amount, currency } : null;
}

/**
 * The `ShipmentRequest` body. `format` chooses the label UPS renders: ZPL as is, GIF for pdf and png (UPS's
 * Ship API renders no PDF; the GIF is converted). The booking reference is a reference number (on the
 * shipment, or on each package in the US and PR, where UPS takes them only there), so that Label Recovery
 * finds the booking by it.
 */
export function shipRequest(request: BookRequest, settings: CarrierSettings, format: LabelFormat): Json {
  const parties = partiesOf(request);
  const shipper = addressAt(request, parties.shipper) ?? {};
  const shipTo = addressAt(request, parties.shipTo) ?? {};
  const shipFrom = addressAt(request, parties.shipFrom) ?? {};
  const isReturn = request.type_of_shipment === 'return';
  const account = String(settings.account_number ?? '').toUpperCase();
  const imperial = usesImperialUnits(countryOf(shipper));
  const from = countryOf(shipFrom);
  const to = countryOf(shipTo);
  const packageReferences = from === to && (from === 'US' || from === 'PR');
  const references = [request.booking_reference, request.shipment_reference?.trim()]
    .filter((value): value is string => Boolean(value))
    .map((value) => ({ Value: clip(value, 35) }));
  const goods = goodsDescription(request);
  const product = UPS_PRODUCTS.find((p) => p.code === request.shipping_service);
  const point = accessPoint(request);
  const email = typeof request.recipient?.email === 'string' ? request.recipient.email.trim() : '';
  const value = goodsValue(request);
  const serviceOptions: Json = {
    ...(point && email ? { Notification: [{ NotificationCode: '012', EMail: { EMailAddress: [email] } }] } : {}),
    ...(needsCustoms(request) ? { InternationalForms: internationalForms(request, shipTo) } : {}),
  };
  const residential = !isReturn && !(typeof shipTo.company === 'string' && shipTo.company.trim());
  const shipToParty = party(shipTo);
  return {
    ShipmentRequest: {
      Request: { RequestOption: 'nonvalidate', SubVersion: '1801', TransactionReference: { CustomerContext: request.booking_reference } },
      Shipment: {
        ...(goods ? { Description: clip(goods, 50) } : {}),
        ...(isReturn ? { ReturnService: { Code: PRINT_RETURN_LABEL, Description: 'UPS Print Return Label' } } : {}),
        Shipper: { ...party(shipper), ShipperNumber: account },
        ShipTo: residential
          ? { ...shipToParty, Address: { ...(shipToParty.Address as Json), ResidentialAddressIndicator: '' } }
          : shipToParty,
        ...(isReturn ? { ShipFrom: party(shipFrom) } : {}),
        ...(point
          ? {
              AlternateDeliveryAddress: point,
              ShipmentIndicationType: [{ Code: String(request.carrier_metadata.shipment_indication_type ?? '01') }],
            }
          : {}),
        PaymentInformation: { ShipmentCharge: [{ Type: '01', BillShipper: { AccountNumber: account } }] },
        ...(settings.negotiated_rates === true ? { ShipmentRatingOptions: { NegotiatedRatesIndicator: '' } } : {}),
        ...(packageReferences ? {} : { ReferenceNumber: references }),
        Service: { Code: request.shipping_service ?? '', ...(product ? { Description: clip(product.name, 35) } : {}) },
        // "Required for forward shipments whose origin is the US and destination is Puerto Rico or Canada."
        ...(!isReturn && from === 'US' && (to === 'PR' || to === 'CA') && value
          ? {
              InvoiceLineTotal: { CurrencyCode: value.currency.toUpperCase(), MonetaryValue: String(Math.max(1, Math.ceil(value.amount))) },
            }
          : {}),
        ...(Object.keys(serviceOptions).length > 0 ? { ShipmentServiceOptions: serviceOptions } : {}),
        Package: request.parcels.map((parcel) => {
          const sides = parcel.dimensions_cm ? upsDimensions(parcel.dimensions_cm, imperial) : null;
          return {
            ...(goods ? { Description: clip(goods, 35) } : {}),
            Packaging: { Code: CUSTOMER_PACKAGE },
            ...(sides
              ? { Dimensions: { UnitOfMeasurement: { Code: imperial ? 'IN' : 'CM' }, Length: sides[0], Width: sides[1], Height: sides[2] } }
              : {}),
            PackageWeight: { UnitOfMeasurement: { Code: imperial ? 'LBS' : 'KGS' }, Weight: upsWeight(parcel.weight_grams ?? 0, imperial) },
            ...(packageReferences ? { ReferenceNumber: references } : {}),
          };
        }),
      },
      LabelSpecification: {
        LabelImageFormat: { Code: format === 'zpl' ? 'ZPL' : 'GIF' },
        HTTPUserAgent: 'Mozilla/4.5',
        LabelStockSize: { Height: '6', Width: '4' },
      },
    },
  };
}

/** A label or form image as UPS sends it: its format code (`GIF`, `ZPL`, `PDF`, `PNG`) and bytes. */
export interface UpsImage {
  code: string;
  bytes: Buffer;
}

export interface UpsPackageResult {
  trackingNumber: string;
  label: UpsImage | null;
}

/** What we keep of a `ShipmentResponse`. */
export interface UpsShipResult {
  shipmentId: string;
  packages: UpsPackageResult[];
  forms: UpsImage[];
  charges: { amount: string; currency: string } | null;
  negotiatedCharges: { amount: string; currency: string } | null;
  billingWeight: { weight: string; unit: string } | null;
  alerts: UpsMessage[];
}

export function imageOf(format: unknown, graphic: unknown): UpsImage | null {
  const code = text(object(format)?.Code)?.toUpperCase();
  const bytes = base64Bytes(graphic);
  return code && bytes ? { code, bytes } : null;
}

function money(value: unknown): { amount: string; currency: string } | null {
  const m = object(value);
  const amount = text(m?.MonetaryValue);
  const currency = text(m?.CurrencyCode);
  return amount && currency && numeric(amount) !== null ? { amount, currency } : null;
}

/** The alerts of a response (`Response.Alert[]`, `{Code, Description}`), as messages. */
export function alertsOf(response: unknown): UpsMessage[] {
  return upsMessages(many(object(response)?.Alert).map((a) => ({ code: a.Code, message: a.Description })));
}

/** A `ShipmentResponse` (HTTP 200) → its shipment number, packages with labels, forms and charges; null when unreadable. */
export function readShipResponse(body: unknown): UpsShipResult | null {
  const response = object(object(body)?.ShipmentResponse);
  const results = object(response?.ShipmentResults);
  const shipmentId = text(results?.ShipmentIdentificationNumber);
  if (!results || !shipmentId) return null;
  const packages = many(results.PackageResults)
    .map((pkg) => {
      const label = object(pkg.ShippingLabel);
      return { trackingNumber: text(pkg.TrackingNumber) ?? '', label: imageOf(label?.ImageFormat, label?.GraphicImage) };
    })
    .filter((pkg) => pkg.trackingNumber !== '');
  if (packages.length === 0) return null;
  const form = object(results.Form);
  const formImage = object(form?.Image);
  const forms = [imageOf(formImage?.ImageFormat, formImage?.GraphicImage)].filter((f): f is UpsImage => f !== null);
  const weight = object(results.BillingWeight);
  const weightValue = text(weight?.Weight);
  const weightUnit = text(object(weight?.UnitOfMeasurement)?.Code);
  return {
    shipmentId,
    packages,
    forms,
    charges: money(object(results.ShipmentCharges)?.TotalCharges),
    negotiatedCharges: money(object(results.NegotiatedRateCharges)?.TotalCharge),
    billingWeight: weightValue && weightUnit ? { weight: weightValue, unit: weightUnit } : null,
    alerts: alertsOf(response?.Response),
  };
}
