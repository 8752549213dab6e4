/**
 * The frame every page of the destination shares: one self-contained HTML document
 * with its CSS inline (no script, no external asset), readable from a phone (390 px)
 * to a desktop: tables turn into stacked cards below 760 px and long names wrap
 * anywhere, so no width scrolls sideways.
 */
import { markup, raw, type SafeHtml } from './html';

const CSS = `*{box-sizing:border-box}
body{font:15px/1.45 system-ui,sans-serif;color:#1d1d1f;margin:0 auto;padding:1rem;max-width:1500px}
h1{font-size:1.4rem;margin:.2rem 0 .4rem;overflow-wrap:anywhere}h2{font-size:1.1rem;margin:1.6rem 0 .4rem}
a{color:#0b57d0}code{font-size:.92em;overflow-wrap:anywhere}
table{width:100%;border-collapse:collapse}
th,td{border-bottom:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#f3f3f3;font-weight:600;overflow-wrap:normal}
time{overflow-wrap:normal}
td.num,th.num{text-align:right;white-space:nowrap}
small{display:block;color:#555;max-width:22rem}
.lead{color:#444;margin:.2rem 0}
.badge{display:inline-block;padding:0 .45em;border-radius:.3em;font-weight:600;white-space:nowrap}
.s-complete .badge{background:#e2f3e3;color:#1b5e20}.s-transferring .badge{background:#e1ecfb;color:#0d47a1}
.s-stalled .badge{background:#fff0c2;color:#6d4a00}.s-not-transferred .badge{background:#fde2e2;color:#a31515}
.pager{display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:baseline;margin:.5rem 0}
dl.meta{display:grid;grid-template-columns:minmax(7rem,max-content) 1fr;gap:.15rem 1rem;margin:.4rem 0}
dl.meta dt{font-weight:600;color:#444}dl.meta dd{margin:0;overflow-wrap:anywhere}
.error{border-left:4px solid #a31515;padding:.3rem .8rem;background:#fdf0f0}
@media (max-width:760px){
thead{display:none}table,tbody,tr,td{display:block;width:100%}
tr{border:1px solid #ddd;border-radius:.4rem;margin:.6rem 0;padding:.25rem 0}
td,td.num{border:0;padding:.15rem .5rem .15rem 7.6rem;position:relative;min-height:1.6rem;text-align:left;white-space:normal}
td::before{content:attr(data-label);position:absolute;left:.5rem;width:6.8rem;font-weight:600;color:#555}
dl.meta{grid-template-columns:1fr}dl.meta dd{margin-bottom:.3rem}
}`;

/** A whole page: title, the shared style, the body. */
export function layout(title: string, body: SafeHtml): string {
  return markup`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${raw(CSS)}</style>
</head><body>
${body}
</body></html>
`.text;
}

/** A page that only says what went wrong (a bad page number, an unknown recording), with a way back. */
export function messagePage(title: string, message: string): string {
  return layout(
    title,
    markup`<p><a href="/">All recordings</a></p>\n<h1>${title}</h1>\n<p class="error">${message}</p>`,
  );
}
