import type { TestApp } from '../helpers/app.js';

/** A shipment a carrier can book: both addresses and a weight. */
export function bookableShipment(shipmentId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    shipment_id: shipmentId,
    shipment_reference: `REF-${shipmentId}`,
    sender_address: { company: 'Acme Warehouse', line1: 'Lagerstraße 5', city: 'Hamburg', postal_code: '20095', country_code: 'DE' },
    recipient_address: {
      first_name: 'Ada',
      last_name: 'Lovelace',
      line1: 'Keizersgracht 1',
      city: 'Amsterdam',
      postal_code: '1015 CJ',
      country_code: 'NL',
    },
    weight: { amount: 1250, unit: 'g' },
    ...extra,
  };
}

export async function createShipment(t: TestApp, token: string, body: Record<string, unknown>): Promise<string> {
  const res = await t.call(token, 'POST', '/v5/shipment/', body);
  if (res.statusCode !== 200) throw new Error(`shipment: ${res.body}`);
  return res.json().data.shipment_uuid;
}
