export { uuidV5 } from '../../core/uuid-v5.js';

/** Namespace of the sandbox carrier's PUDO location UUIDs. */
export const SANDBOX_PUDO_NAMESPACE = '6f1d3c2a-8b4e-5a7d-9c61-2e0f4b8a9d13';
