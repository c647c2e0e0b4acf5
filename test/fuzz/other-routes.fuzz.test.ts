import { describeEndpointFuzz } from './endpoint-fuzz.js';
import { selectedByNoSuite } from './suites.js';

/** So that a route added to the OpenAPI document is fuzzed even before a suite names it. */
describeEndpointFuzz('every other published route', selectedByNoSuite);
