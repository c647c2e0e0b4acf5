import { createHash } from 'node:crypto';
import { html, SafeHtml } from './html.js';

/**
 * One small inline stylesheet for the public pages. Colours keep a contrast of at least 4.5:1 on
 * their backgrounds; focus is always visible; the layout is one column on small screens.
 */
const STYLES = `
*,*::before,*::after{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:#1b1f24;background:#f4f5f7}
body{margin:0}
.skip{position:absolute;left:-999px;top:0;background:#0b3d91;color:#fff;padding:.5rem 1rem;z-index:1}
.skip:focus{left:.5rem;top:.5rem}
a{color:#0b3d91}
:focus-visible{outline:3px solid #b35900;outline-offset:2px}
header,main,footer{max-width:44rem;margin:0 auto;padding:1rem}
header{padding-top:1.5rem}
h1{font-size:1.5rem;margin:0 0 .25rem}
h2{font-size:1.125rem;margin:0 0 .75rem}
.card{background:#fff;border:1px solid #d0d5dd;border-radius:.5rem;padding:1rem 1.25rem;margin:0 0 1rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dl.facts dt{color:#444c56}
dl.facts dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.status{font-size:1.25rem;font-weight:700;margin:0 0 1rem}
.status.alert{color:#a3150c}
ol.progress{list-style:none;margin:0;padding:0;display:flex;gap:.5rem}
ol.progress li{flex:1;border-top:6px solid #c2c8d0;padding-top:.5rem;font-size:.9rem;color:#444c56}
ol.progress li.done{border-color:#17703a;color:#1b1f24}
ol.progress li.current{border-color:#0b3d91;color:#1b1f24;font-weight:700}
ol.progress.alert li.current{border-color:#a3150c}
.notice{border-left:6px solid #a3150c;background:#fdf1f0;padding:.75rem 1rem;margin:1rem 0 0}
.notice.info{border-color:#0b3d91;background:#eef3fb}
ol.timeline{list-style:none;margin:0;padding:0}
ol.timeline li{border-left:3px solid #c2c8d0;padding:0 0 1rem 1rem;position:relative}
ol.timeline li:first-child{border-color:#0b3d91}
ol.timeline .what{font-weight:600;margin:0}
ol.timeline .when,ol.timeline .where{margin:0;color:#444c56;font-size:.95rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
footer{color:#444c56;font-size:.875rem}
@media (max-width:32rem){ol.progress{flex-direction:column}ol.progress li{border-top:0;border-left:6px solid #c2c8d0;padding:0 0 0 .75rem}
ol.progress li.done{border-color:#17703a}ol.progress li.current{border-color:#0b3d91}ol.progress.alert li.current{border-color:#a3150c}
dl.facts{grid-template-columns:1fr}}
`.trim();

const STYLE_HASH = createHash('sha256').update(STYLES).digest('base64');

/** Headers of every public page: no scripts at all, no framing, no referrer, the one stylesheet by its hash. */
export const PAGE_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-robots-tag': 'noindex, nofollow',
  'cache-control': 'no-store',
};

export function renderPage(input: { language: string; title: string; body: SafeHtml }): string {
  return html`<!doctype html>
<html lang="${input.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${input.title}</title>
<style>${new SafeHtml(STYLES)}</style>
</head>
<body>
${input.body}
</body>
</html>
`.value;
}
