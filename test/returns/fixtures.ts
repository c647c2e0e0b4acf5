/** A standard-flow return request with two priced line items (refund 45.50). */
export function standardReturn(shipmentId: string, extra: Record<string, unknown> = {}) {
  return {
    return_ticket: { return_id: `RMA-${shipmentId}`, comment: 'Too small', refund_method: 'original_payment', return_method: 'drop_off' },
    shipment: {
      shipment_id: shipmentId,
      line_items: [
        { product_name: 'Shirt', product_id: 'P-1', quantity: 2, product_cost: 20, currency_code: 'EUR', return_reason: 'Too small' },
        { product_name: 'Socks', product_reference: 'SKU-9', total_price: 5.5, currency_code: 'EUR', return_reason: 'Changed my mind' },
      ],
      to_address: { company: 'Acme returns', city: 'Berlin', country_code: 'DE' },
      from_address: { first_name: 'Grace', city: 'Paris', country: 'France' },
    },
    ...extra,
  };
}
