import { describeEndpointFuzz } from './endpoint-fuzz.js';
import { FUZZ_SUITES } from './suites.js';

describeEndpointFuzz(FUZZ_SUITES.shipments.name, FUZZ_SUITES.shipments.select);
