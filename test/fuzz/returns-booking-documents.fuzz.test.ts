import { describeEndpointFuzz } from './endpoint-fuzz.js';

describeEndpointFuzz('returns, booking, documents, PUDO locations, carrier configurations', (op) =>
  /^\/v5\/(return|booking|shipments\/documents|pudo-locations|carrier-configs)\//.test(op.path),
);
