import { mapStatusBody } from '../../../src/carriers/postnl/postnl.mapper.js';
import { type ContractFixture, carrierContract } from '../contract.js';
import { API_KEY, BARCODES, postnlAdapter, postnlServer, SETTINGS } from './postnl-server.js';

/** Every fixture asked on its own, plus one that asks them all at once with a number PostNL does not know. */
function fixture(numbers: string[]): ContractFixture {
  return {
    numbers,
    secrets: [API_KEY],
    async start() {
      const server = await postnlServer();
      const { adapter } = postnlAdapter(server);
      return { adapter, settings: SETTINGS, close: () => server.close() };
    },
  };
}

const fixtures: Record<string, ContractFixture> = {};
for (const [barcode, name] of Object.entries(BARCODES)) fixtures[`${name} (${barcode})`] = fixture([barcode]);
fixtures['not-found (3SDEVC419999999)'] = fixture(['3SDEVC419999999']);
fixtures['every fixture at once'] = fixture([...Object.keys(BARCODES), '3SDEVC419999999']);

carrierContract({
  carrierId: 'postnl',
  fixtures,
  mapAnyJson: (body) => mapStatusBody('3SDEVC410000001', body),
});
