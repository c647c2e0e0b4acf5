import type { Repositories } from '../../db/repositories/index.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import { returnsInfoView } from './return.presenter.js';

/**
 * The ReturnsInfo that shipment details v5.2 show for a return shipment. A read over the repositories alone,
 * so the shipment reader can be built before the returns service (which needs the shipments service).
 */
export class ReturnsInfoReader {
  constructor(private readonly repos: Repositories) {}

  /** The ticket of a return shipment as ReturnsInfo, or null when the shipment is not a return shipment. */
  async returnsInfo(shipment: ShipmentRow): Promise<ReturnType<typeof returnsInfoView> | null> {
    if (shipment.shipment_type !== 'return') return null;
    const row = await this.repos.returns.findByShipment(shipment.id);
    return row ? returnsInfoView(row, shipment.id) : null;
  }
}
