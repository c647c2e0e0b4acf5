import { describeEndpointFuzz } from './endpoint-fuzz.js';
import { FUZZ_SUITES } from './suites.js';

describeEndpointFuzz(FUZZ_SUITES.returns.name, FUZZ_SUITES.returns.select);
