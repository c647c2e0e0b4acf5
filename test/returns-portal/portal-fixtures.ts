import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestAccount, TestApp } from '../helpers/app.js';

export const MERCHANT = {
  company: 'Sock Shop',
  first_name: 'Returns desk',
  line1: 'Lagerstraße 5',
  street_name: 'Lagerstraße',
  house_number: '5',
  postal_code: '20095',
  city: 'Hamburg',
  country_code: 'DE',
};

/** An order shipped to a consumer: a shirt (two), socks, and a gift card the policy keeps out of returns. */
export function orderShipment(shipmentId: string, orderId: string, recipient: Record<string, unknown>) {
  return {
    shipment_id: shipmentId,
    order_id: orderId,
    sender_address: { ...MERCHANT },
    recipient_address: {
      first_name: 'Grace',
      last_name: 'Hopper',
      line1: 'Invalidenstraße 1',
      country_code: 'DE',
      city: 'Berlin',
      ...recipient,
    },
    weight: { amount: 900, unit: 'g' },
    line_items: [
      {
        product_name: 'Shirt',
        product_id: 'P-1',
        quantity: 2,
        product_cost: 20,
        currency_code: 'EUR',
        product_weight: 300,
        product_weight_unit: 'g',
      },
      { product_name: 'Socks', product_reference: 'SKU-9', total_price: 5.5, currency_code: 'EUR' },
      { product_name: 'Gift card', product_id: 'GIFT', product_cost: 25, currency_code: 'EUR' },
    ],
  };
}

/** Creates the shipment and, when given, a delivered event at that time. */
export async function shipOrder(t: TestApp, acct: TestAccount, body: Record<string, unknown>, deliveredAt?: string): Promise<void> {
  const res = await t.as(acct)('POST', '/v5/shipment/', body);
  expect(res.statusCode, res.body).toBe(200);
  if (deliveredAt) {
    const event = await t.as(acct)('POST', '/v5/events/create/', {
      shipment_id: body.shipment_id,
      events: [{ event: 'Delivered', event_key: 'delivered', time: deliveredAt }],
    });
    expect(event.statusCode, event.body).toBe(200);
  }
}

/** The account's policy with the portal on and these changes. */
export async function enablePortal(
  t: TestApp,
  acct: TestAccount,
  change: (policy: Record<string, any>) => void = () => {},
): Promise<string> {
  const policy = (await t.as(acct)('GET', '/v5/returns/policy/')).json().data;
  policy.enabled = true;
  change(policy);
  const res = await t.as(acct)('PUT', '/v5/returns/policy/', policy);
  expect(res.statusCode, res.body).toBe(200);
  return policy.portal_reference as string;
}

/** A browser of the portal: GET and form POSTs from one address, following nothing by itself. */
export function portalBrowser(t: TestApp, remoteAddress = '203.0.113.7') {
  return {
    get: (url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> =>
      t.app.inject({ method: 'GET', url, headers, remoteAddress }),
    post: (url: string, fields: Record<string, string>): Promise<LightMyRequestResponse> =>
      t.app.inject({
        method: 'POST',
        url,
        remoteAddress,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(fields).toString(),
      }),
  };
}

/** The hidden and chosen fields of the choice form on a page, as a browser would send them unchanged. */
export function formFields(page: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]] = decode(match[2]);
  return fields;
}

/** The index of an item on the choice page, by its key. */
export function itemIndex(page: string, key: string): number {
  const match = new RegExp(`name="item_(\\d+)_key" value="${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`).exec(page);
  if (!match) throw new Error(`no item ${key} on the page`);
  return Number(match[1]);
}

function decode(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}
