import type { Operation } from './harness.js';

/** The fuzz suites, by the operations each selects; each runs in a file of its own (in parallel with the others). */
export const FUZZ_SUITES = {
  shipments: { name: 'shipments and events', select: (op: Operation) => /^\/v5(-2-0)?\/(shipment|events)\//.test(op.path) },
  returns: {
    name: 'returns, booking, documents, PUDO locations, carrier configurations',
    select: (op: Operation) => /^\/v5\/(return|booking|shipments\/documents|pudo-locations|carrier-configs)\//.test(op.path),
  },
  webhooks: { name: 'webhooks and notifications', select: (op: Operation) => /^\/v5\/(webhooks|notification)\//.test(op.path) },
  admin: { name: 'admin API', select: (op: Operation) => op.path.startsWith('/admin/v1/'), runs: 30 },
} as const;

/** Every published operation no other suite selects (carrier detection, the token endpoint, carrier and SMS hooks). */
export function selectedByNoSuite(op: Operation): boolean {
  return !Object.values(FUZZ_SUITES).some((suite) => suite.select(op));
}
