import { mapEventsAnswer, readSummary } from '../../../src/carriers/royalm/royalm.mapper.js';
import { type ContractFixture, carrierContract } from '../contract.js';
import type { ScriptedReply } from '../support/carrier-server.js';
import { royalmFixture } from './fixtures.js';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  EVENTS_PATH,
  fastClock,
  NUMBERS,
  type RoyalmServerOptions,
  royalmAdapter,
  royalmServer,
  SETTINGS,
  SUMMARY_PATH,
  UNKNOWN,
} from './royalm-server.js';

/** The local Royal Mail asked for `numbers`, its summaries and histories as the fixtures hold them (or as scripted). */
function fixture(
  numbers: string[],
  options: RoyalmServerOptions & { always?: Array<[string | RegExp, ScriptedReply]> } = {},
): ContractFixture {
  return {
    numbers,
    secrets: [CLIENT_ID, CLIENT_SECRET],
    async start() {
      const server = await royalmServer(options);
      // Scripted replies are used once: repeated so that every poll of the contract meets them.
      for (const [path, reply] of options.always ?? []) for (let i = 0; i < 12; i++) server.once(path, reply);
      const { adapter } = royalmAdapter(server, fastClock());
      return { adapter, settings: SETTINGS, close: () => server.close() };
    },
  };
}

const fixtures: Record<string, ContractFixture> = {};
for (const [number, name] of Object.entries(NUMBERS)) fixtures[`${name} (${number})`] = fixture([number]);
fixtures[`not found (${UNKNOWN})`] = fixture([UNKNOWN]);
fixtures['every fixture at once, with an unknown number'] = fixture([...Object.keys(NUMBERS), UNKNOWN]);
fixtures['histories asked without a summary'] = fixture(['QA900000019GB', 'QA900000084GB', UNKNOWN], {
  withoutSummary: new Set(['QA900000019GB', 'QA900000084GB', UNKNOWN]),
});
fixtures['a history that is not JSON'] = fixture(['QA900000019GB', 'QA900000022GB'], {
  always: [['/mailpieces/v2/QA900000022GB/events', { status: 200, body: '<html>maintenance</html>' }]],
});
fixtures['a history without a mail piece'] = fixture(['QA900000036GB'], {
  always: [[EVENTS_PATH, { status: 200, body: royalmFixture('malformed') }]],
});
fixtures['a summary of a batch with a failed number'] = fixture(['QA900000019GB', 'QA900000115GB'], {
  always: [[SUMMARY_PATH, { status: 200, body: royalmFixture('summary-batch') }]],
});
fixtures['refused credentials'] = fixture(['QA900000019GB'], {
  always: [[SUMMARY_PATH, { status: 401, body: royalmFixture('unauthorized') }]],
});

carrierContract({
  carrierId: 'royalm',
  fixtures,
  mapAnyJson: (body) => [
    mapEventsAnswer('QA900000019GB', 200, body),
    mapEventsAnswer('QA900000019GB', 404, body),
    mapEventsAnswer('QA900000019GB', 400, body, {
      proofOfDelivery: (id, notice) => ({
        reference: notice.reference,
        file_name: `${id}.png`,
        content_type: 'image/png',
        fetch: async () => ({ status: 'error', retryable: false, message: 'none' }),
      }),
    }),
    readSummary(body, ['QA900000019GB', '0B9A8C7D6E5F40302010A']),
  ],
});
