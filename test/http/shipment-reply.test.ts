import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { keptRendering, type RenderedShipment, type ShipmentJson, shipmentObject } from '../../src/domain/shipments/rendered-shipment.js';
import type { ShapeVersion } from '../../src/domain/shipments/shipment.presenter.js';
import { sendShipment, sendShipmentPage } from '../../src/http/shipment-reply.js';

/** A JSON object's text as the one piece of a serializer's output (its events' pieces empty). */
const whole = (object: string): ShipmentJson => ({ head: object, events: '', tail: '' });

const rendered = (version: ShapeVersion, object: object, podUrl: string | null = null): RenderedShipment => ({
  version,
  json: keptRendering(version, whole(JSON.stringify(object))).json,
  podUrl,
});

/** Answers written from renderings: the envelope, the kept bytes, and v5.2's pod_url as the shipment's last field. */
describe('shipment answers', () => {
  const app = Fastify();
  let next: (reply: Parameters<typeof sendShipment>[0]) => unknown = () => null;
  let sent: unknown;
  app.get('/', async (_request, reply) => next(reply));
  app.addHook('onSend', async (_request, _reply, payload) => {
    sent = payload;
    return payload;
  });
  afterAll(() => app.close());

  const answer = async (send: typeof next) => {
    next = send;
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    return res.body;
  };

  it('writes a v5 shipment as rendered', async () => {
    const shipment = rendered('v5', { shipment_uuid: 'u-1', note: 'Zoë' });
    expect(await answer((reply) => sendShipment(reply, shipment))).toBe(
      '{"api_response":"200","data":{"shipment_uuid":"u-1","note":"Zoë"}}',
    );
    expect(shipmentObject(shipment)).toEqual({ shipment_uuid: 'u-1', note: 'Zoë' });
  });

  it('adds pod_url last to a v5.2 shipment, signed link or null', async () => {
    const link = 'https://waybill.test/files/pod/x?expires=1&signature=a"b';
    const signed = rendered('v5.2', { shipment_uuid: 'u-2', parcel_recipient_information: null }, link);
    const body = await answer((reply) => sendShipment(reply, signed));
    expect(body).toBe(
      `{"api_response":"200","data":{"shipment_uuid":"u-2","parcel_recipient_information":null,"pod_url":${JSON.stringify(link)}}}`,
    );
    expect(JSON.parse(body).data).toEqual(shipmentObject(signed));
    expect(Object.keys(shipmentObject(signed)).at(-1)).toBe('pod_url');

    const unsigned = rendered('v5.2', { shipment_uuid: 'u-3' });
    expect(await answer((reply) => sendShipment(reply, unsigned))).toBe(
      '{"api_response":"200","data":{"shipment_uuid":"u-3","pod_url":null}}',
    );
    // Without a link, the answer is the kept bytes themselves, not a copy.
    expect(sent).toBe(unsigned.json);
    expect(shipmentObject(unsigned)).toEqual({ shipment_uuid: 'u-3', pod_url: null });
    // The kept rendering is shared with later answers: writing one with a link leaves it as it was.
    const kept = Buffer.from(signed.json).toString();
    await answer((reply) => sendShipment(reply, signed));
    expect(Buffer.from(signed.json).toString()).toBe(kept);
    expect(kept).toBe('{"api_response":"200","data":{"shipment_uuid":"u-2","parcel_recipient_information":null,"pod_url":null}}');
  });

  it('keeps a v5.2 rendering built of many pieces, in characters of one to four UTF-8 bytes, whole', async () => {
    // A serializer joins pieces one by one, as here: the kept bytes must be those of the whole text.
    let object = '{"shipment_uuid":"u-4"';
    for (const [i, text] of ['Zoë', 'Friedrichstraße', '東京都', 'ok 📦', 'a"b\\c', ''].entries())
      object += `,"f${i}":${JSON.stringify(text)}`;
    object += '}';
    const shipment: RenderedShipment = { version: 'v5.2', json: keptRendering('v5.2', whole(object)).json, podUrl: null };
    const expected = `{"api_response":"200","data":${object.slice(0, -1)},"pod_url":null}}`;
    expect(shipment.json.equals(Buffer.from(expected))).toBe(true);
    expect(await answer((reply) => sendShipment(reply, shipment))).toBe(expected);
    expect(shipmentObject(shipment)).toEqual({ ...JSON.parse(object), pod_url: null });
  });

  it('keeps where its events lie, and takes another rendering’s events as bytes, in both shapes', () => {
    const events = '{"event":"Zoë in 東京"},{"event":"📦 \\"x\\""}';
    const object = { head: '{"shipment_uuid":"ü-5","all_events":[', events, tail: '],"note":"Straße"}' };
    const text = `${object.head}${events}${object.tail}`;
    for (const version of ['v5', 'v5.2'] as const) {
      const kept = keptRendering(version, object);
      const expected = version === 'v5' ? text : `{"api_response":"200","data":${text.slice(0, -1)},"pod_url":null}}`;
      expect(kept.json.toString()).toBe(expected);
      expect(kept.json.subarray(kept.eventsStart, kept.eventsEnd).toString()).toBe(events);
      // Another shipment's pieces around these events' bytes: the bytes are written as they are.
      const other = { head: '{"shipment_uuid":"b","all_events":[', events: 'never written', tail: '],"note":null}' };
      const spliced = keptRendering(version, other, kept.json.subarray(kept.eventsStart, kept.eventsEnd));
      const text2 = `${other.head}${events}${other.tail}`;
      expect(spliced.json.toString()).toBe(
        version === 'v5' ? text2 : `{"api_response":"200","data":${text2.slice(0, -1)},"pod_url":null}}`,
      );
      expect(spliced.json.subarray(spliced.eventsStart, spliced.eventsEnd).toString()).toBe(events);
      // With no events, the range is empty, between the brackets.
      const none = keptRendering(version, { ...object, events: '' });
      expect(none.eventsEnd - none.eventsStart).toBe(0);
      expect(none.json.subarray(none.eventsStart - 1, none.eventsEnd + 1).toString()).toBe('[]');
    }
  });

  it('writes v5.2 shipments into a page with pod_url last', async () => {
    const page = {
      shipments: [rendered('v5.2', { shipment_uuid: 'a' }), rendered('v5.2', { shipment_uuid: 'b' }, 'https://waybill.test/p')],
      next_page: null,
    };
    expect(await answer((reply) => sendShipmentPage(reply, page))).toBe(
      '{"api_response":"200","data":[{"shipment_uuid":"a","pod_url":null},{"shipment_uuid":"b","pod_url":"https://waybill.test/p"}],"next_page":null}',
    );
  });

  it('writes a list page with its cursor', async () => {
    const page = { shipments: [rendered('v5', { shipment_uuid: 'a' }), rendered('v5', { shipment_uuid: 'b' })], next_page: 'c"1' };
    expect(JSON.parse(await answer((reply) => sendShipmentPage(reply, page)))).toEqual({
      api_response: '200',
      data: [{ shipment_uuid: 'a' }, { shipment_uuid: 'b' }],
      next_page: 'c"1',
    });
    expect(await answer((reply) => sendShipmentPage(reply, { shipments: [page.shipments[0]], next_page: null }))).toBe(
      '{"api_response":"200","data":[{"shipment_uuid":"a"}],"next_page":null}',
    );
  });
});
