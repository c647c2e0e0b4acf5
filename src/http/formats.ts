import type { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { isWebAddress } from '../core/web-address.js';

/**
 * The formats every validator of the interface knows: ajv-formats' and `web-url`, a URL a browser can follow
 * (`isWebAddress`): the links a merchant gives (a product's page and image, a return's proof) are shown to consumers
 * and to other systems.
 */
export function withFormats(ajv: Ajv): Ajv {
  addFormats.default(ajv);
  ajv.addFormat('web-url', { type: 'string', validate: (text: string) => isWebAddress(text) });
  return ajv;
}
