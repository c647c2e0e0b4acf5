import { describeEndpointFuzz } from './endpoint-fuzz.js';

describeEndpointFuzz('webhooks and notifications', (op) => /^\/v5\/(webhooks|notification)\//.test(op.path));
describeEndpointFuzz('admin API', (op) => op.path.startsWith('/admin/v1/'), 30);
