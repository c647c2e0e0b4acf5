import { expect } from 'vitest';
import type { TestAccount, TestApp } from '../helpers/app.js';

/** What the tracking page must never show of the sample shipment. */
export const PRIVATE_TEXT = [
  'Kastanienallee',
  '10435',
  'Schneider',
  'mila.schneider@example.com',
  '+49 30 5550199',
  '89.90',
  '89.9',
  '4.90',
  'EUR',
  'Nordlicht',
  'Hafenstraße',
];

function recipient(first: string, last: string, city: string, postal: string, country: string) {
  return { first_name: first, last_name: last, line1: 'Hauptstraße 5', city, postal_code: postal, country_code: country };
}

const SHIPMENTS: Array<{ id: string; tracking?: string; city: [string, string, string, string, string] }> = [
  { id: 'SO-10475', city: ['Jonas', 'Weber', 'Köln', '50667', 'DE'] },
  { id: 'SO-10476', tracking: 'WB1000078', city: ['Lea', 'Fischer', 'München', '80331', 'DE'] },
  { id: 'SO-10477', tracking: 'WB5000012', city: ['Noah', 'Becker', 'Hamburg', '20095', 'DE'] },
  { id: 'SO-10478', tracking: 'WB6000051', city: ['Emma', 'Wagner', 'Leipzig', '04109', 'DE'] },
  { id: 'SO-10479', tracking: 'WB2000233', city: ['Sophie', 'Martin', 'Paris', '75002', 'FR'] },
  { id: 'SO-10480', tracking: 'WB4000004', city: ['Liam', 'Jansen', 'Amsterdam', '1015 CJ', 'NL'] },
];

export interface SampleAccount {
  account: TestAccount;
  /** Tracking page reference of SO-10481, out for delivery, with its private fields filled in. */
  trackingReference: string;
  /** SO-10482: booked with the sandbox carrier, so it has a PDF label, and moving. */
  booked: { shipmentId: string; trackingNumber: string };
}

/**
 * A merchant ("Nordlicht Books") with shipments in every state the sandbox carrier tells: waiting, received,
 * in transit, out for delivery, delivered, a failed delivery with an address problem, a return to sender,
 * and one booked with a label. Realistic enough for the README's screenshots.
 */
export async function seedSampleAccount(t: TestApp): Promise<SampleAccount> {
  const account = await t.account({
    features: ['booking', 'returns'],
    carriers: [{ carrier_reference: 'sandbox', booking: ['outbound'], settings: { step_seconds: 900, poll_interval_seconds: 60 } }],
  });
  const api = t.as(account);
  const create = async (body: Record<string, unknown>) => {
    const res = await api('POST', '/v5/shipment/', body);
    expect(res.statusCode, res.body).toBe(200);
    t.clock.advance(3 * 60_000);
    return res.json().data.shipment_uuid as string;
  };
  for (const shipment of SHIPMENTS) {
    const [first, last, city, postal, country] = shipment.city;
    await create({
      shipment_id: shipment.id,
      order_id: `#${shipment.id.slice(3)}`,
      recipient_address: recipient(first, last, city, postal, country),
      ...(shipment.tracking ? { tracking_number: shipment.tracking, carrier_reference: 'sandbox' } : {}),
      tags: ['webshop'],
    });
  }
  await create({
    shipment_id: 'SO-10481',
    order_id: '#10481',
    recipient_address: {
      first_name: 'Mila',
      last_name: 'Schneider',
      line1: 'Kastanienallee 12',
      city: 'Berlin',
      postal_code: '10435',
      country_code: 'DE',
      email: 'mila.schneider@example.com',
      phone: '+49 30 5550199',
    },
    sender_address: { company: 'Nordlicht Books', line1: 'Hafenstraße 3', city: 'Hamburg', postal_code: '20457', country_code: 'DE' },
    notification_email: ['mila.schneider@example.com'],
    shipment_value: { amount: 89.9, currency: 'EUR' },
    total_shipping_cost: { amount: 4.9, currency: 'EUR' },
    tracking_number: 'WB3000117',
    carrier_reference: 'sandbox',
    tags: ['webshop', 'gift'],
  });
  const bookedUuid = await create({
    shipment_id: 'SO-10482',
    order_id: '#10482',
    sender_address: { company: 'Nordlicht Books', line1: 'Hafenstraße 3', city: 'Hamburg', postal_code: '20457', country_code: 'DE' },
    recipient_address: { ...recipient('Ada', 'Lovelace', 'Amsterdam', '1015 CJ', 'NL'), line1: 'Keizersgracht 1' },
    weight: { amount: 1250, unit: 'g' },
    tags: ['webshop'],
  });
  const booking = await api('POST', '/v5/booking/', { shipment_uuid: bookedUuid, carrier_reference: 'sandbox' });
  expect(booking.statusCode, booking.body).toBe(200);
  // Poll everything, then let the booked parcel move on a few steps.
  for (let i = 0; i < 5; i++) {
    await t.context.worker.runOnce();
    t.clock.advance(16 * 60_000);
  }
  const details = await api('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'SO-10481' });
  return {
    account,
    trackingReference: details.json().data.tracking_page_reference,
    booked: { shipmentId: 'SO-10482', trackingNumber: booking.json().data.tracking_number },
  };
}
