import type { Repositories } from '../../db/repositories/index.js';
import type { ShipmentHead, ShipmentRow } from '../../db/repositories/shipments.repository.js';
import { FieldErrorCollector, NotFoundError, ValidationError } from '../errors.js';
import type { ShipmentHeads } from './shipment-head-memo.js';

export interface ShipmentIdentifier {
  shipment_uuid?: string;
  shipment_id?: string;
}

/**
 * Finds the caller's shipment by `shipment_uuid` or `shipment_id` (one is needed; when both are given
 * they must name the same shipment). Another account's shipment is simply not found.
 */
export async function findShipment(repos: Repositories, accountId: number, id: ShipmentIdentifier): Promise<ShipmentRow> {
  requireIdentifier(id);
  const row = id.shipment_uuid
    ? await repos.shipments.findByUuid(accountId, id.shipment_uuid)
    : await repos.shipments.findByShipmentId(accountId, id.shipment_id as string);
  return matched(row, id);
}

/** `findShipment`, reading only the shipment's head (what its kept rendering is checked by). */
export async function findShipmentHead(heads: ShipmentHeads, accountId: number, id: ShipmentIdentifier): Promise<ShipmentHead> {
  requireIdentifier(id);
  const head = id.shipment_uuid
    ? await heads.head(accountId, 'shipment_uuid', id.shipment_uuid)
    : await heads.head(accountId, 'shipment_id', id.shipment_id as string);
  return matched(head, id);
}

function requireIdentifier(id: ShipmentIdentifier): void {
  if (!id.shipment_uuid && !id.shipment_id) {
    const errors = new FieldErrorCollector();
    errors.add(['shipment_uuid'], 'Provide shipment_uuid or shipment_id.');
    errors.add(['shipment_id'], 'Provide shipment_uuid or shipment_id.');
    throw new ValidationError(errors.result());
  }
}

function matched<R extends { shipment_id: string }>(row: R | undefined, id: ShipmentIdentifier): R {
  if (!row) throw new NotFoundError('No shipment matches the identifier');
  if (id.shipment_uuid && id.shipment_id && row.shipment_id !== id.shipment_id) {
    throw ValidationError.at(['shipment_id'], 'shipment_id and shipment_uuid name different shipments.');
  }
  return row;
}
