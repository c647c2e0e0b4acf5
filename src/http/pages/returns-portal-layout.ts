import { createHash } from 'node:crypto';
import { LANGUAGES, type Language } from '../../i18n/languages.js';
import { formatMessage } from '../../i18n/messages.js';
import { html, SafeHtml } from './html.js';

/** The names of the languages, each in itself, for the language switch. */
const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  nl: 'Nederlands',
  es: 'Español',
  it: 'Italiano',
};

/**
 * The portal's stylesheet: the public pages' look with forms, in the merchant's colour. Text on the colour is
 * white or near-black, whichever contrasts more; colours keep a contrast of at least 4.5:1 on their backgrounds.
 */
function stylesheet(brand: string): string {
  const onBrand = contrastText(brand);
  return `
*,*::before,*::after{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:#1b1f24;background:#f4f5f7}
body{margin:0}
.skip{position:absolute;left:-999px;top:0;background:#1b1f24;color:#fff;padding:.5rem 1rem;z-index:1}
.skip:focus{left:.5rem;top:.5rem}
a{color:#0b3d91}
:focus-visible{outline:3px solid #b35900;outline-offset:2px}
header,main,footer{max-width:44rem;margin:0 auto;padding:1rem}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;border-top:6px solid ${brand}}
header .shop{font-weight:700;font-size:1.125rem;margin:0;display:flex;gap:.75rem;align-items:center}
header img{max-height:2.5rem;max-width:10rem}
nav.languages ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem .75rem}
nav.languages a[aria-current]{font-weight:700;color:#1b1f24}
h1{font-size:1.5rem;margin:0 0 .75rem}
h2{font-size:1.125rem;margin:0 0 .75rem}
.card{background:#fff;border:1px solid #d0d5dd;border-radius:.5rem;padding:1rem 1.25rem;margin:0 0 1rem}
label,legend{display:block;font-weight:600;margin:0 0 .25rem}
fieldset{border:0;margin:0 0 1rem;padding:0}
.field{margin:0 0 1rem}
input[type=text],input[type=email],select,textarea{width:100%;font:inherit;padding:.5rem;border:1px solid #6b7480;border-radius:.25rem;background:#fff;color:#1b1f24}
.choice{display:flex;gap:.5rem;align-items:flex-start;font-weight:400;margin:.25rem 0}
.choice input{margin-top:.35rem}
.hint{color:#444c56;font-size:.95rem;margin:.25rem 0}
.error{color:#a3150c;font-weight:600;margin:.25rem 0}
[aria-invalid=true]{border-color:#a3150c;border-width:2px}
.notice{border-left:6px solid #a3150c;background:#fdf1f0;padding:.75rem 1rem;margin:0 0 1rem}
.notice.info{border-color:${brand};background:#eef3fb}
button,.button{display:inline-block;font:inherit;font-weight:700;padding:.625rem 1.25rem;border:0;border-radius:.25rem;background:${brand};color:${onBrand};cursor:pointer;text-decoration:none}
.item{border-top:1px solid #d0d5dd;padding:1rem 0}
.item:first-of-type{border-top:0}
.item h3{font-size:1rem;margin:0 0 .5rem}
.item .row{display:grid;grid-template-columns:1fr 2fr;gap:1rem}
.muted{color:#444c56}
ol.progress{list-style:none;margin:0 0 1rem;padding:0;display:flex;gap:.5rem}
ol.progress li{flex:1;border-top:6px solid #c2c8d0;padding-top:.5rem;font-size:.9rem;color:#444c56}
ol.progress li.done{border-color:#17703a;color:#1b1f24}
ol.progress li.current{border-color:${brand};color:#1b1f24;font-weight:700}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dl.facts dt{color:#444c56}
dl.facts dd{margin:0;font-weight:600;overflow-wrap:anywhere}
address{font-style:normal}
ul.points{list-style:none;margin:0;padding:0}
ul.points li{padding:.5rem 0;border-top:1px solid #d0d5dd}
ul.points li:first-child{border-top:0}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
footer{color:#444c56;font-size:.875rem}
@media (max-width:32rem){ol.progress{flex-direction:column}ol.progress li{border-top:0;border-left:6px solid #c2c8d0;padding:0 0 0 .75rem}
ol.progress li.done{border-color:#17703a}ol.progress li.current{border-color:${brand}}.item .row{grid-template-columns:1fr}dl.facts{grid-template-columns:1fr}}
`.trim();
}

/** White or near-black text on a colour, whichever has the higher contrast (WCAG relative luminance). */
function contrastText(hex: string): string {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#ffffff' : '#1b1f24';
}

/** Headers of a portal page: no scripts, forms only to the portal itself, images of the portal and the merchant's logo. */
export function portalHeaders(brand: string, logoUrl: string | null): Record<string, string> {
  const hash = createHash('sha256').update(stylesheet(brand)).digest('base64');
  const logoOrigin = logoUrl?.startsWith('https://') ? ` ${new URL(logoUrl).origin}` : '';
  return {
    'content-security-policy': `default-src 'none'; style-src 'sha256-${hash}'; img-src 'self'${logoOrigin}; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'x-robots-tag': 'noindex, nofollow',
    'cache-control': 'no-store',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
  };
}

/** What every portal page shows around its content. */
export interface PortalFrame {
  language: Language;
  shop: string;
  brand: string;
  logoUrl: string | null;
  /** The portal's address (`/returns/{portal_reference}`), where its forms post. */
  base: string;
  /** The page's own address without `?lang=`, for the language switch; null on pages reached by a form. */
  path: string | null;
}

export function t(language: Language, key: string, values?: Record<string, string>): string {
  return formatMessage(language, `returns_portal.${key}`, values);
}

export function renderPortalPage(frame: PortalFrame, title: string, content: SafeHtml): string {
  const { language } = frame;
  const languages = frame.path
    ? html`<nav class="languages" aria-label="${t(language, 'language')}"><ul>
${LANGUAGES.map(
  (code) =>
    html`<li><a href="${frame.path}?lang=${code}" lang="${code}" hreflang="${code}"${code === language ? html` aria-current="true"` : ''}>${LANGUAGE_NAMES[code]}</a></li>`,
)}
</ul></nav>`
    : '';
  return html`<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title} – ${t(language, 'page_title', { shop: frame.shop })}</title>
<style>${new SafeHtml(stylesheet(frame.brand))}</style>
</head>
<body>
<a class="skip" href="#main">${t(language, 'skip_link')}</a>
<header><p class="shop">${frame.logoUrl ? html`<img src="${frame.logoUrl}" alt="">` : ''}${frame.shop}</p>${languages}</header>
<main id="main" tabindex="-1">
${content}
</main>
<footer><p>${t(language, 'footer', { shop: frame.shop })}</p></footer>
</body>
</html>
`.value;
}
