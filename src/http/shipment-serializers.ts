import { type TObject, type TSchema, Type } from '@sinclair/typebox';
import type { ShipmentJson } from '../domain/shipments/rendered-shipment.js';
import type { ShipmentSerializers } from '../domain/shipments/shipment.reader.js';
import { EventV5, EventV52, ShipmentV5, ShipmentV52 } from '../schemas/shipment-output.schemas.js';
import { compileSerializer } from './serialization.js';

type Json = Record<string, unknown>;
type Serialize = (value: unknown) => string;

/**
 * The serializers the reader renders shipments with: the shipment response schemas, v5.2 without `pod_url`.
 * They write what one serializer of the whole schema writes, in parts (`ShipmentJson`): the shipment's fields
 * before its events and after them, and each event's own fields, by the schemas' serializers; an event's location and
 * additional_info are written once for each object given, since the presenter gives every event with the same
 * stored text the same object (src/domain/shipments/parsed-texts.ts). test/http/shipment-serializers.test.ts
 * holds them to the whole schema's serializer.
 */
export function shipmentSerializers(): ShipmentSerializers {
  return { v5: shipmentSerializer(ShipmentV5, EventV5), 'v5.2': shipmentSerializer(Type.Omit(ShipmentV52, ['pod_url']), EventV52) };
}

/** These properties of the schema, in the order given, as a schema of their own. */
function part(schema: TObject, keys: string[]): TObject {
  return Type.Object(Object.fromEntries(keys.map((key) => [key, schema.properties[key] as TSchema])));
}

function shipmentSerializer(shipment: TObject, event: TObject): (value: Json) => ShipmentJson {
  const keys = Object.keys(shipment.properties);
  const at = keys.indexOf('all_events');
  if (at <= 0) throw new Error('a shipment schema needs all_events, after at least one field');
  const before = compileSerializer(part(shipment, keys.slice(0, at)));
  const after = at < keys.length - 1 ? compileSerializer(part(shipment, keys.slice(at + 1))) : null;
  const writeEvent = eventSerializer(event);
  return (value) => {
    const shown = value.all_events as Json[];
    let events = '';
    for (let i = 0; i < shown.length; i++) events += i === 0 ? writeEvent(shown[i]) : `,${writeEvent(shown[i])}`;
    // Every field of a shape is required: the part after the events is never an empty object.
    return { head: `${before(value).slice(0, -1)},"all_events":[`, events, tail: after ? `],${after(value).slice(1)}` : ']}' };
  };
}

/** An event: its own fields by the schema, then additional_info and location, the schema's last two, as kept. */
function eventSerializer(event: TObject): Serialize {
  const keys = Object.keys(event.properties);
  if (keys.at(-2) !== 'additional_info' || keys.at(-1) !== 'location')
    throw new Error('an event schema must end in additional_info, location');
  const own = compileSerializer(part(event, keys.slice(0, -2)));
  const info = keptJson(compileSerializer(event.properties.additional_info));
  const location = keptJson(compileSerializer(event.properties.location));
  return (value) => {
    const fields = value as Json;
    return `${own(fields).slice(0, -1)},"additional_info":${info(fields.additional_info)},"location":${location(fields.location)}}`;
  };
}

/** `serialize`, written once for each object given while it lives; any other value is written each time. */
function keptJson(serialize: Serialize): Serialize {
  const written = new WeakMap<object, string>();
  return (value) => {
    if (value === null || typeof value !== 'object') return serialize(value);
    let json = written.get(value);
    if (json === undefined) {
      json = serialize(value);
      written.set(value, json);
    }
    return json;
  };
}
