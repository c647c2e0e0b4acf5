import addFormats from 'ajv-formats';

const uri = addFormats.default.get('uri', 'full') as (text: string) => boolean;

const httpOrHttps = /^https?:\/\/[^/?#\s\\]/i;
const httpsOnly = /^https:\/\/[^/?#\s\\]/i;

/**
 * A URL a browser can follow, `http` or `https` (or `https` alone): a host right after its two slashes, a valid URI,
 * and what a browser's parser makes of it a host and a port it can connect to. The WHATWG parser reads
 * `https:///path`, `https:/host`, `https:host` and `https://\host` as the host that follows, so its hostname alone
 * would let them through; `javascript:`, `data:` and `file:` URLs are valid URIs but no links to show.
 */
export function isWebAddress(text: string, schemes: 'http or https' | 'https' = 'http or https'): boolean {
  if (!(schemes === 'https' ? httpsOnly : httpOrHttps).test(text) || !uri(text)) return false;
  try {
    return new URL(text).hostname !== '';
  } catch {
    return false;
  }
}
