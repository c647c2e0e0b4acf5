import { Type } from '@sinclair/typebox';
import { Nullable } from './common.js';
import { PudoLocationSchema } from './pudo.schemas.js';

export const BookingCreateBody = Type.Object(
  {
    shipment_uuid: Type.Optional(Type.String({ format: 'uuid', description: 'Give this or shipment_id' })),
    shipment_id: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'Give this or shipment_uuid' })),
    carrier_reference: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 50,
        description: "Optional when the shipment has one; must be enabled for booking; must not conflict with the shipment's own",
      }),
    ),
    pudo_location_uuid: Type.Optional(Type.String({ format: 'uuid', description: 'Route the booking to this pick-up/drop-off location' })),
    carrier_metadata: Type.Optional(
      Type.Record(Type.String({ maxLength: 50 }), Type.Unknown(), { maxProperties: 50, description: 'Carrier-specific options' }),
    ),
  },
  { additionalProperties: false },
);

export const BookingCancelBody = Type.Object(
  {
    booking_uuid: Type.Optional(Type.String({ format: 'uuid', description: 'The booking to cancel; or give the shipment' })),
    shipment_uuid: Type.Optional(Type.String({ format: 'uuid', description: 'Cancel the booking of this shipment' })),
    shipment_id: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'Cancel the booking of this shipment' })),
  },
  { additionalProperties: false },
);

export const BookingDocument = Type.Object({
  document_uuid: Type.String({ format: 'uuid' }),
  document_id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  file_format: Type.String(),
  download_url: Nullable(
    Type.String({ description: 'Signed, valid 24 hours, no bearer token needed; null while the carrier generates the label' }),
  ),
  base64_content: Nullable(Type.String({ description: 'null while the carrier generates the label' })),
  created_date: Type.String(),
  additional_info: Type.Record(Type.String(), Type.Unknown()),
});

export const Booking = Type.Object({
  booking_uuid: Type.String({ format: 'uuid' }),
  shipment_uuid: Type.String({ format: 'uuid' }),
  shipment_id: Type.String(),
  carrier_reference: Type.String(),
  shipping_service: Nullable(Type.String()),
  carrier_shipment_identifier: Nullable(Type.String()),
  tracking_number: Nullable(Type.String()),
  type_of_shipment: Type.String({ examples: ['outbound', 'return'] }),
  status: Type.String({ examples: ['booked'] }),
  documents: Type.Array(BookingDocument),
  pudo_location_uuid: Nullable(Type.String()),
  pudo_locations: Type.Array(PudoLocationSchema),
  carrier_additional_info: Type.Record(Type.String(), Type.Unknown()),
  created_date: Type.String(),
  updated_date: Type.String(),
});
