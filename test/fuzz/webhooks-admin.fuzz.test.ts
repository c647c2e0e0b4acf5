import { describeEndpointFuzz } from './endpoint-fuzz.js';
import { FUZZ_SUITES } from './suites.js';

describeEndpointFuzz(FUZZ_SUITES.webhooks.name, FUZZ_SUITES.webhooks.select);
describeEndpointFuzz(FUZZ_SUITES.admin.name, FUZZ_SUITES.admin.select, FUZZ_SUITES.admin.runs);
