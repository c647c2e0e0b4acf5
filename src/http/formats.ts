import type { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

const uri = addFormats.default.get('uri', 'full') as (text: string) => boolean;

/**
 * `web-url`: a URL a browser can follow, `http` or `https` with a host. The links a merchant gives (a product's page
 * and image, a return's proof) are shown to consumers and to other systems; `javascript:`, `data:` and `file:` URLs are
 * valid URIs but no links to show.
 */
export function isWebUrl(text: string): boolean {
  // A host right after `//` (the WHATWG parser would read `https:///path` as the host `path`), a valid URI,
  // and what a browser's parser makes of it: a host, and a port it can connect to.
  if (!/^https?:\/\/[^/?#\s]/i.test(text) || !uri(text)) return false;
  try {
    return new URL(text).hostname !== '';
  } catch {
    return false;
  }
}

/** The formats every validator of the interface knows: ajv-formats' and `web-url`. */
export function withFormats(ajv: Ajv): Ajv {
  addFormats.default(ajv);
  ajv.addFormat('web-url', { type: 'string', validate: isWebUrl });
  return ajv;
}
