import type { CarrierServer, ReceivedRequest, ScriptedReply } from '../support/carrier-server.js';

export const SUBSCRIBE_PATH = '/tracking/push/v1/subscription';

/** The numbers of one subscription call, as the local DHL received them. */
export function subscribedIn(request: ReceivedRequest): string[] {
  return (JSON.parse(request.body) as { shipmentIDs: string[] }).shipmentIDs;
}

/**
 * The local DHL push subscription endpoint: checks the key, the body (hook, authentication, type, events,
 * at most 10 numbers) and answers 201 with a subscription id; faults it finds are listed in `faults`.
 */
export function subscriptionRoute(server: CarrierServer, key: string, faults: string[]): void {
  let issued = 0;
  server.on('POST', SUBSCRIBE_PATH, (request): ScriptedReply => {
    const problem = (status: number, detail: string): ScriptedReply => {
      faults.push(detail);
      return {
        status,
        headers: { 'content-type': 'application/problem+json' },
        body: JSON.stringify({ status, title: 'Refused', detail }),
      };
    };
    if (request.headers['dhl-api-key'] !== key) return problem(401, 'Invalid API key');
    if (!String(request.headers['content-type']).startsWith('application/json')) return problem(415, 'Send JSON');
    const body = JSON.parse(request.body) as Record<string, unknown> & {
      hook?: { uri?: string; authentication?: { type?: string; header?: string; token?: string } };
    };
    if (!body.hook?.uri?.startsWith('https://')) return problem(400, 'hook.uri must be https');
    const auth = body.hook.authentication;
    if (auth?.type !== 'ApiKeyAuthentication' || !auth.header || !auth.token) return problem(400, 'hook.authentication incomplete');
    if (body.type !== 'Shipment' || body.format !== 'Default') return problem(400, 'type or format');
    if (!Array.isArray(body.events) || body.events.length !== 5) return problem(400, 'events');
    const ids = body.shipmentIDs;
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > 10) return problem(400, 'shipmentIDs: 1 to 10');
    issued++;
    return { status: 201, body: { subscriptionId: `sub-${issued}`, self: `${server.url}${SUBSCRIBE_PATH}/sub-${issued}` } };
  });
}
