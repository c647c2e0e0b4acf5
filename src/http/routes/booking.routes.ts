import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { FieldErrors } from '../../domain/errors.js';
import { Booking, BookingCancelBody, BookingCreateBody } from '../../schemas/booking.schemas.js';
import { bearerSecurity, merchantErrors } from '../../schemas/common.js';
import { callerOf, requireFeature } from '../auth.js';
import type { Envelope } from '../errors.js';

type Nested = { [key: string]: Array<{ api_response: string; standard_error_message: string }> | Nested };

/** Booking errors name each message `{api_response, standard_error_message}`, as the interface shows. */
function asStandardMessages(errors: FieldErrors): Nested {
  const out: Nested = Object.create(null);
  for (const [field, value] of Object.entries(errors)) {
    out[field] = Array.isArray(value)
      ? value.map((message) => ({ api_response: '4030', standard_error_message: message }))
      : asStandardMessages(value);
  }
  return out;
}

/** `{"api_response":"4030","message":"Validation error","data":{"errors":{…},"shipment_id":…,"shipment_uuid":…}}` */
export function bookingValidationError(request: FastifyRequest, errors: FieldErrors): Envelope {
  // The body failed validation: it may be anything JSON allows.
  const body: unknown = request.body;
  const sent = body && typeof body === 'object' ? body : {};
  return {
    api_response: '4030',
    message: 'Validation error',
    data: {
      errors: asStandardMessages(errors),
      shipment_id: 'shipment_id' in sent && typeof sent.shipment_id === 'string' ? sent.shipment_id : null,
      shipment_uuid: 'shipment_uuid' in sent && typeof sent.shipment_uuid === 'string' ? sent.shipment_uuid : null,
    },
  };
}

export const bookingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const bookingOnly = requireFeature('booking');
  app.post(
    '/v5/booking/',
    {
      onRequest: bookingOnly,
      config: { formatValidationError: bookingValidationError },
      schema: {
        tags: ['Booking'],
        summary: 'Book an open shipment with a carrier and provision its label',
        description:
          'HTTP 200 when the label is ready; HTTP 299 when the booking succeeded but the carrier is still generating the label ' +
          '(download_url and base64_content are null; fetch it later from the document endpoints). Needs the booking feature.',
        security: bearerSecurity,
        body: BookingCreateBody,
        response: {
          200: Type.Object({ api_response: Type.String(), data: Booking }),
          299: Type.Object({ api_response: Type.String(), data: Booking }),
          ...merchantErrors,
          503: Type.Ref('ErrorEnvelope'),
        },
      },
    },
    async (request, reply) => {
      const result = await app.context.bookings.book(callerOf(request), request.body, app.context.carrierWaits.begin());
      // A label the carrier delivers later is HTTP 299, as the interface says.
      const status = result.kind === 'label_pending' ? 299 : 200;
      return reply.code(status).send({ api_response: String(status), data: result.booking });
    },
  );

  app.post(
    '/v5/booking/validate/',
    {
      onRequest: bookingOnly,
      config: { formatValidationError: bookingValidationError },
      schema: {
        tags: ['Booking'],
        summary: "Check a booking without booking: every check of POST /v5/booking/, and the carrier's where it has one",
        description:
          'Takes the body of POST /v5/booking/ and answers 200 when the booking would be accepted, or the same 4030 errors. ' +
          'carrier_checked is true when the carrier itself checked it (DHL Parcel DE); nothing is booked or reserved.',
        security: bearerSecurity,
        body: BookingCreateBody,
        response: {
          200: Type.Object({
            api_response: Type.String(),
            data: Type.Object({ valid: Type.Boolean(), carrier_checked: Type.Boolean(), warnings: Type.Array(Type.String()) }),
          }),
          ...merchantErrors,
          503: Type.Ref('ErrorEnvelope'),
        },
      },
    },
    async (request) => ({
      api_response: '200',
      data: await app.context.bookings.validate(callerOf(request), request.body, app.context.carrierWaits.begin()),
    }),
  );

  app.post(
    '/v5/booking/cancel/',
    {
      onRequest: bookingOnly,
      config: { formatValidationError: bookingValidationError },
      schema: {
        tags: ['Booking'],
        summary: 'Cancel (void) a booking and free its shipment to be booked again',
        description:
          'Voids the booking at the carrier, removes its labels, clears the tracking number it gave the shipment, returns a ' +
          "return's ticket to approved and sends booking.cancelled. A booking whose carrier never answered (status unknown) " +
          'is released without asking the carrier. Cancelling again answers the same cancelled booking. Needs the booking feature.',
        security: bearerSecurity,
        body: BookingCancelBody,
        response: {
          200: Type.Object({ api_response: Type.String(), data: Booking }),
          ...merchantErrors,
          503: Type.Ref('ErrorEnvelope'),
        },
      },
    },
    async (request) => {
      const cancelled = await app.context.bookingCancellations.cancel(callerOf(request), request.body, app.context.carrierWaits.begin());
      return { api_response: '200', data: cancelled };
    },
  );
};
