import { describeEndpointFuzz } from './endpoint-fuzz.js';

describeEndpointFuzz('shipments and events', (op) => /^\/v5(-2-0)?\/(shipment|events)\//.test(op.path));
