import type { CarrierFieldError } from '../booking.js';
import type { DhlServices, DhlValue } from './dhlpde.payload.js';
import { BILLING_NUMBER_PATTERN } from './dhlpde.settings.js';

/** The booking options a merchant gives in `carrier_metadata`, read and checked. */
export interface ParcelDeOptions {
  label_format?: 'pdf' | 'zpl';
  billing_number?: string;
  post_number?: string;
  /** DHL's value-added services, already in DHL's names (`dhlRetoure` is added from `return_label`). */
  services: Omit<DhlServices, 'dhlRetoure'>;
  return_label: boolean;
  export_type?: string;
  export_description?: string;
  invoice_no?: string;
  shipping_conditions?: string;
  postal_charges?: DhlValue;
  shipper_customs_ref?: string;
  consignee_customs_ref?: string;
  receiver_id?: string;
  cost_center?: string;
}

export const EXPORT_TYPES = ['OTHER', 'PRESENT', 'COMMERCIAL_SAMPLE', 'DOCUMENT', 'RETURN_OF_GOODS', 'COMMERCIAL_GOODS'] as const;

type Reader = (value: unknown, options: ParcelDeOptions) => string | null;

const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.trim() !== '' && value.length <= max;

const textOption =
  (max: number, set: (options: ParcelDeOptions, value: string) => void): Reader =>
  (value, options) => {
    if (!isText(value, max)) return `A text of 1 to ${max} characters.`;
    set(options, value.trim());
    return null;
  };

const flag =
  (set: (options: ParcelDeOptions, value: boolean) => void): Reader =>
  (value, options) => {
    if (typeof value !== 'boolean') return 'true or false.';
    set(options, value);
    return null;
  };

const oneOf =
  <T extends string>(allowed: readonly T[], set: (options: ParcelDeOptions, value: T) => void): Reader =>
  (value, options) => {
    if (!allowed.includes(value as T)) return `One of: ${allowed.join(', ')}.`;
    set(options, value as T);
    return null;
  };

/** The interface's Money record, `{"amount": …, "currency": "EUR"}`, as DHL's `Value`. */
const money =
  (minimum: number, set: (options: ParcelDeOptions, value: DhlValue) => void): Reader =>
  (value, options) => {
    const money = value as { amount?: unknown; currency?: unknown } | null;
    const amount = money?.amount;
    if (
      !money ||
      typeof money !== 'object' ||
      typeof amount !== 'number' ||
      !Number.isFinite(amount) ||
      amount < minimum ||
      amount > 100_000 ||
      typeof money.currency !== 'string' ||
      !/^[A-Z]{3}$/.test(money.currency)
    ) {
      return `{"amount": ${minimum} to 100000, "currency": ISO 4217 code such as "EUR"}.`;
    }
    set(options, { value: amount, currency: money.currency });
    return null;
  };

/** Every option `carrier_metadata` may hold for DHL Parcel DE, and how it is read. docs/carriers/dhlpde.md lists them. */
const READERS: Record<string, Reader> = {
  label_format: oneOf(['pdf', 'zpl'] as const, (o, v) => {
    o.label_format = v;
  }),
  billing_number: (value, options) => {
    if (typeof value !== 'string' || !new RegExp(BILLING_NUMBER_PATTERN).test(value)) {
      return 'A billing number of 14 characters: the 10-digit EKP, the product procedure and the participation.';
    }
    options.billing_number = value;
    return null;
  },
  post_number: (value, options) => {
    if (typeof value !== 'string' || !/^[0-9]{6,10}$/.test(value)) return "The recipient's DHL post number (Postnummer): 6 to 10 digits.";
    options.post_number = value;
    return null;
  },
  preferred_neighbour: textOption(100, (o, v) => {
    o.services.preferredNeighbour = v;
  }),
  preferred_location: textOption(100, (o, v) => {
    o.services.preferredLocation = v;
  }),
  preferred_day: (value, options) => {
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) return 'A date, YYYY-MM-DD.';
    options.services.preferredDay = value;
    return null;
  },
  visual_check_of_age: oneOf(['A16', 'A18'] as const, (o, v) => {
    o.services.visualCheckOfAge = v;
  }),
  named_person_only: flag((o, v) => {
    o.services.namedPersonOnly = v;
  }),
  no_neighbour_delivery: flag((o, v) => {
    o.services.noNeighbourDelivery = v;
  }),
  signed_for_by_recipient: flag((o, v) => {
    o.services.signedForByRecipient = v;
  }),
  bulky_goods: flag((o, v) => {
    o.services.bulkyGoods = v;
  }),
  premium: flag((o, v) => {
    o.services.premium = v;
  }),
  closest_drop_point: flag((o, v) => {
    o.services.closestDropPoint = v;
  }),
  postal_delivery_duty_paid: flag((o, v) => {
    o.services.postalDeliveryDutyPaid = v;
  }),
  additional_insurance: money(0.01, (o, v) => {
    o.services.additionalInsurance = v;
  }),
  endorsement: oneOf(['RETURN', 'ABANDON'] as const, (o, v) => {
    o.services.endorsement = v;
  }),
  parcel_outlet_routing: (value, options) => {
    if (!isText(value, 80) || !/^[^@\s]+@[^@\s]+$/.test(value))
      return 'The e-mail address DHL notifies when the parcel is held at a retail outlet.';
    options.services.parcelOutletRouting = value.trim();
    return null;
  },
  return_label: flag((o, v) => {
    o.return_label = v;
  }),
  export_type: oneOf(EXPORT_TYPES, (o, v) => {
    o.export_type = v;
  }),
  export_description: textOption(80, (o, v) => {
    o.export_description = v;
  }),
  invoice_no: textOption(35, (o, v) => {
    o.invoice_no = v;
  }),
  shipping_conditions: oneOf(['DAP', 'DDP', 'DDX', 'DXV'] as const, (o, v) => {
    o.shipping_conditions = v;
  }),
  postal_charges: money(0, (o, v) => {
    o.postal_charges = v;
  }),
  shipper_customs_ref: textOption(35, (o, v) => {
    o.shipper_customs_ref = v;
  }),
  consignee_customs_ref: textOption(35, (o, v) => {
    o.consignee_customs_ref = v;
  }),
  receiver_id: (value, options) => {
    if (!isText(value, 30) || /\s/.test(value)) return 'A receiver id of the business customer portal, 1 to 30 characters.';
    options.receiver_id = value;
    return null;
  },
  cost_center: textOption(50, (o, v) => {
    o.cost_center = v;
  }),
};

export const METADATA_KEYS = Object.keys(READERS);

/** Reads `carrier_metadata`: every option checked, unknown ones refused, each problem at its path. */
export function readMetadata(metadata: Readonly<Record<string, unknown>>): { options: ParcelDeOptions; problems: CarrierFieldError[] } {
  const options: ParcelDeOptions = { services: {}, return_label: false };
  const problems: CarrierFieldError[] = [];
  for (const [key, value] of Object.entries(metadata)) {
    const reader = Object.hasOwn(READERS, key) ? READERS[key] : undefined;
    const problem = reader
      ? reader(value, options)
      : `Unknown option for DHL Parcel DE. Options: ${METADATA_KEYS.join(', ')}, and parcels (the service's).`;
    if (problem) problems.push({ path: ['carrier_metadata', key], message: problem });
  }
  return { options, problems };
}
