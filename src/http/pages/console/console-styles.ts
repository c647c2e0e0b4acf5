import { createHash } from 'node:crypto';

/**
 * The console's one stylesheet, served as a file (the console's Content-Security-Policy allows styles from
 * itself only). The palette and cards are the tracking page's; colours keep a contrast of at least 4.5:1.
 */
export const CONSOLE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:#1b1f24;background:#f4f5f7}
body{margin:0}
.skip{position:absolute;left:-999px;top:0;background:#0b3d91;color:#fff;padding:.5rem 1rem;z-index:1}
.skip:focus{left:.5rem;top:.5rem}
a{color:#0b3d91}
:focus-visible{outline:3px solid #b35900;outline-offset:2px}
.bar{background:#0b3d91;color:#fff}
.bar-inner{max-width:72rem;margin:0 auto;padding:.6rem 1rem;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem}
.brand{font-weight:700;font-size:1.1rem;color:#fff;text-decoration:none;margin-right:auto}
.bar nav ul{list-style:none;display:flex;gap:1rem;margin:0;padding:0}
.bar nav a{color:#fff;text-decoration:none;padding:.25rem 0;border-bottom:3px solid transparent}
.bar nav a[aria-current="page"]{border-color:#fff;font-weight:600}
.bar form{margin:0}
.bar button{background:transparent;color:#fff;border:1px solid #fff;border-radius:.35rem;padding:.2rem .7rem;font:inherit;cursor:pointer}
main{max-width:72rem;margin:0 auto;padding:1.25rem 1rem}
main.narrow{max-width:28rem;padding-top:3rem}
h1{font-size:1.5rem;margin:0 0 1rem}
h2{font-size:1.125rem;margin:0 0 .75rem}
.card{background:#fff;border:1px solid #d0d5dd;border-radius:.5rem;padding:1rem 1.25rem;margin:0 0 1rem}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(20rem,1fr));gap:0 1rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dl.facts dt{color:#444c56}
dl.facts dd{margin:0;font-weight:600;overflow-wrap:anywhere}
label{display:block;font-weight:600;margin:0 0 .25rem}
input,select{font:inherit;padding:.4rem .5rem;border:1px solid #8c959f;border-radius:.35rem;background:#fff;color:#1b1f24;width:100%}
.filters{display:grid;grid-template-columns:repeat(auto-fit,minmax(11rem,1fr));gap:.75rem;align-items:end}
.field{margin:0 0 .9rem}
.actions{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center}
button,.button{font:inherit;background:#0b3d91;color:#fff;border:0;border-radius:.35rem;padding:.45rem 1rem;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary,.button.secondary{background:#fff;color:#0b3d91;border:1px solid #0b3d91}
button.danger{background:#a3150c}
table{width:100%;border-collapse:collapse;background:#fff}
th,td{text-align:left;padding:.5rem .6rem;border-bottom:1px solid #d0d5dd;vertical-align:top}
th{font-size:.875rem;color:#444c56;font-weight:600;background:#f9fafb}
.table-wrap{overflow-x:auto;border:1px solid #d0d5dd;border-radius:.5rem;margin:0 0 1rem}
#reasons input{min-width:8rem}
.pill{display:inline-block;padding:0 .55rem;border-radius:1rem;font-size:.85rem;font-weight:600;background:#e6e9ee;color:#1b1f24;white-space:nowrap}
.pill.ok{background:#dff3e6;color:#0f5a2c}
.pill.alert{background:#fbe3e1;color:#8a120a}
.pill.info{background:#e4ecfa;color:#0b3d91}
.muted{color:#444c56}
.notice{border-left:6px solid #a3150c;background:#fdf1f0;padding:.75rem 1rem;margin:0 0 1rem}
.notice.info{border-color:#0b3d91;background:#eef3fb}
.notice.ok{border-color:#17703a;background:#eef8f1}
.notice ul{margin:.25rem 0 0;padding-left:1.25rem}
ol.timeline{list-style:none;margin:0;padding:0}
ol.timeline li{border-left:3px solid #c2c8d0;padding:0 0 1rem 1rem}
ol.timeline li:first-child{border-color:#0b3d91}
ol.timeline .what{font-weight:600;margin:0}
ol.timeline .when,ol.timeline .where{margin:0;color:#444c56;font-size:.95rem}
ul.plain{list-style:none;margin:0;padding:0}
ul.plain li{padding:.35rem 0;border-bottom:1px solid #e6e9ee}
ul.plain li:last-child{border-bottom:0}
.inline{display:flex;gap:.4rem;align-items:center;margin:0}
.inline input{width:12rem}
.pager{display:flex;gap:.75rem;justify-content:flex-end}
code{font-size:.9em;overflow-wrap:anywhere}
textarea{width:100%;font:inherit;font-family:ui-monospace,Menlo,Consolas,monospace}
iframe.preview{width:100%;min-height:32rem;border:1px solid #d0d5dd;border-radius:.5rem;background:#fff}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
:where(.analytics-chart){--plot-background:white;display:block;height:auto;height:intrinsic;max-width:100%}
:where(.analytics-chart text),:where(.analytics-chart tspan){white-space:pre}
.chart-pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(20rem,30rem);gap:1rem;align-items:start}
@media (max-width:60rem){.chart-pair{grid-template-columns:minmax(0,1fr)}}
figure.chart{margin:0;min-width:0}
figure.chart figcaption{font-size:.875rem;margin-top:.25rem}
ul.chart-legend{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0 0 .5rem;padding:0;font-size:.875rem}
ul.chart-legend li{display:inline-flex;align-items:center;gap:.35rem}
.chart-table{max-height:26rem;overflow:auto;margin:0}
.chart-table caption{text-align:left;font-weight:600;padding:.5rem .6rem}
.chart-table th,.chart-table td{padding:.3rem .4rem;font-size:.875rem}
.chart-table th[scope="row"]{white-space:nowrap}
.chart-table .n{display:block;font-size:.8rem;color:#444c56;white-space:nowrap}
.num{text-align:right;font-variant-numeric:tabular-nums}
.rate-table td{white-space:nowrap}
.rate-table .n{display:block;font-size:.8rem;color:#444c56}
.rate-high{background:#cfead8}
.rate-good{background:#e8f4ec}
.rate-fair{background:#fdf0d5}
.rate-low{background:#f9d9d6}
.rate-none{background:#fff}
.rate-key{display:inline-block;padding:0 .45rem;border:1px solid #d0d5dd;border-radius:.25rem;font-size:.85rem;color:#1b1f24}
`.trim();

/** Part of the stylesheet's address, so a changed stylesheet is a new file for every cache. */
export const CONSOLE_CSS_VERSION = createHash('sha256').update(CONSOLE_CSS).digest('hex').slice(0, 12);
export const CONSOLE_CSS_PATH = `/console/assets/console-${CONSOLE_CSS_VERSION}.css`;
