import { createHash, randomInt, randomUUID } from 'node:crypto';
import { LABEL_FORMATS, type LabelAddress, type LabelFormat } from '../../documents/label.types.js';
import type { BookedShipment, BookRequest, BookResult, CarrierFieldError, FoundBooking } from '../booking.js';
import type { CarrierSettings } from '../carrier.js';

/** Booking options the sandbox accepts in `carrier_metadata`. */
const METADATA_KEYS = ['label_format', 'reference', 'simulate'] as const;
/**
 * `carrier_metadata.simulate`: make the sandbox fail the way carriers do, to test an integration's error paths.
 * `answer_lost`: the booking is made but its answer never arrives (found when the service asks);
 * `answer_lost_not_booked`: the call is lost before the carrier books (the service's checks say so a minute later).
 */
const SIMULATIONS = ['carrier_rejects', 'carrier_unavailable', 'answer_lost', 'answer_lost_not_booked'] as const;

/** Parcels one sandbox booking may hold, each with its own label and tracking number. */
export const SANDBOX_MAX_PARCELS = 10;

/** The service whose label the sandbox "generates" a few seconds after booking (answer: HTTP 299). */
export const DELAYED_LABEL_SERVICE = 'sandbox_delayed_label';
export const DELAYED_LABEL_SECONDS = 5;
const DEFAULT_SERVICE = 'sandbox_standard';

function labelFormat(request: BookRequest, settings: CarrierSettings): LabelFormat {
  const wanted = request.carrier_metadata.label_format ?? settings.label_format ?? 'pdf';
  return LABEL_FORMATS.includes(wanted as LabelFormat) ? (wanted as LabelFormat) : 'pdf';
}

function checkAddress(address: Record<string, unknown> | null, field: string, errors: CarrierFieldError[]): void {
  if (!address) {
    errors.push({ path: [field], message: 'The carrier needs this address to book.' });
    return;
  }
  if (!address.first_name && !address.company)
    errors.push({ path: [field, 'first_name'], message: 'A name or a company is needed on the label.' });
  if (!address.line1 && !address.street_name) errors.push({ path: [field, 'line1'], message: 'A street address is needed on the label.' });
  if (!address.city) errors.push({ path: [field, 'city'], message: 'The city is needed on the label.' });
  if (!address.postal_code) errors.push({ path: [field, 'postal_code'], message: 'The postal code is needed on the label.' });
}

/** Everything the sandbox would refuse, before anything is recorded. */
export function checkSandboxBooking(request: BookRequest, settings: CarrierSettings): CarrierFieldError[] {
  const errors: CarrierFieldError[] = [];
  checkAddress(request.sender, request.sender_field, errors);
  checkAddress(request.recipient, request.recipient_field, errors);
  if (request.parcels.length > 1) {
    request.parcels.forEach((parcel, index) => {
      if (parcel.weight_grams === null || parcel.weight_grams <= 0)
        errors.push({
          path: ['carrier_metadata', 'parcels', index, 'weight'],
          message: "The carrier needs each parcel's weight (in g, above 0).",
        });
    });
  } else if (request.weight_grams === null || request.weight_grams <= 0) {
    errors.push({ path: ['weight'], message: 'The carrier needs the weight (in g, above 0) to book.' });
  }
  for (const [key, value] of Object.entries(request.carrier_metadata)) {
    if (!(METADATA_KEYS as readonly string[]).includes(key)) {
      errors.push({ path: ['carrier_metadata', key], message: `Unknown option for this carrier. Options: ${METADATA_KEYS.join(', ')}.` });
    } else if (key === 'label_format' && !LABEL_FORMATS.includes(value as LabelFormat)) {
      errors.push({ path: ['carrier_metadata', key], message: `One of: ${LABEL_FORMATS.join(', ')}.` });
    } else if (key === 'reference' && (typeof value !== 'string' || value.length > 35)) {
      errors.push({ path: ['carrier_metadata', key], message: 'A text of at most 35 characters.' });
    } else if (key === 'simulate' && !(SIMULATIONS as readonly string[]).includes(value as string)) {
      errors.push({ path: ['carrier_metadata', key], message: `One of: ${SIMULATIONS.join(', ')}.` });
    }
  }
  if (settings.label_format !== undefined && !LABEL_FORMATS.includes(settings.label_format as LabelFormat)) {
    errors.push({
      path: ['carrier_reference'],
      message: `The carrier configuration's label_format must be one of: ${LABEL_FORMATS.join(', ')}.`,
    });
  }
  return errors;
}

function labelAddress(address: Record<string, unknown>): LabelAddress {
  return address as unknown as LabelAddress;
}

/** Books with the sandbox: a live (`WB8…`) tracking number per parcel, so the booked parcels move on by themselves. */
export async function bookWithSandbox(request: BookRequest, settings: CarrierSettings, carrierName: string): Promise<BookResult> {
  const simulate = request.carrier_metadata.simulate;
  if (simulate === 'carrier_unavailable')
    return { status: 'error', retryable: true, message: 'Sandbox carrier unavailable (simulated timeout)' };
  if (simulate === 'carrier_rejects') {
    return {
      status: 'error',
      retryable: false,
      message: 'Sandbox carrier refused the booking (simulated)',
      field_errors: [{ path: ['carrier_metadata', 'simulate'], message: 'The carrier refused the booking: simulated rejection.' }],
    };
  }
  if (simulate === 'answer_lost' || simulate === 'answer_lost_not_booked')
    return { status: 'error', retryable: true, outcome_unknown: true, message: 'Sandbox carrier sent no answer (simulated)' };
  return sandboxBooking(request, settings, carrierName, () => `WB8${String(randomInt(0, 1e9)).padStart(9, '0')}`, `SBX-${randomUUID()}`);
}

/** What the sandbox holds under a booking reference: the simulated bookings whose answer was lost. */
export async function findSandboxBooking(request: BookRequest, settings: CarrierSettings, carrierName: string): Promise<FoundBooking> {
  if (request.carrier_metadata.simulate !== 'answer_lost') return { status: 'not_found' };
  // The same reference always names the same booking: its numbers are derived from it.
  const digest = createHash('sha256').update(request.booking_reference).digest();
  let parcel = 0;
  const next = () => `WB8${String(digest.readUInt32BE((parcel++ % 7) * 4) % 1e9).padStart(9, '0')}`;
  return { status: 'found', result: sandboxBooking(request, settings, carrierName, next, `SBX-${request.booking_reference}`) };
}

function sandboxBooking(
  request: BookRequest,
  settings: CarrierSettings,
  carrierName: string,
  nextNumber: () => string,
  identifier: string,
): BookedShipment {
  const service = request.shipping_service ?? DEFAULT_SERVICE;
  const format = labelFormat(request, settings);
  const numbers = request.parcels.map(() => nextNumber());
  const several = request.parcels.length > 1;
  return {
    status: 'ok',
    tracking_number: numbers[0],
    carrier_shipment_identifier: identifier,
    shipping_service: service,
    carrier_additional_info: {
      label_format: format,
      ...(request.carrier_metadata.reference ? { reference: request.carrier_metadata.reference } : {}),
    },
    ...(several ? { parcel_tracking_numbers: numbers } : {}),
    labels: request.parcels.map((parcel, index) => ({
      kind: 'render' as const,
      format,
      ready_after_seconds: service === DELAYED_LABEL_SERVICE ? DELAYED_LABEL_SECONDS : 0,
      ...(several ? { parcel_index: index, tracking_number: numbers[index] } : {}),
      input: {
        sender: labelAddress(request.sender ?? {}),
        recipient: labelAddress(request.recipient ?? {}),
        carrier_name: carrierName,
        service_name: service,
        weight_grams: parcel.weight_grams ?? request.weight_grams ?? 0,
        tracking_number: numbers[index],
        shipment_id: request.shipment_id,
        shipment_reference: request.shipment_reference,
        pudo_location_name: request.pudo_location?.address.address_name ?? null,
        date: request.date,
      },
    })),
  };
}
