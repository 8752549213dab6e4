/**
 * `GET /`: a small HTML page for people exploring by hand, behind the account's
 * credentials (Basic or Digest, the key as password): the recordings of that
 * account with their status, clips, bytes and duration.
 */
import type { RequestHandler } from 'express';
import { Authenticator } from '../../auth/authenticator';
import type { DestinationContext } from '../destination-context';
import type { RecordingInfo } from '../recordings';

/** The page's handler. */
export function recordingsPage(ctx: DestinationContext): RequestHandler {
  const authenticator = new Authenticator({
    mode: 'both',
    accounts: ctx.options.users.map((u) => ({ name: u.user, password: u.key, role: 'admin' as const })),
    realm: 'bwc-emu content destination',
    algorithms: ['MD5', 'SHA-256'],
    nonceLifetimeMs: 300_000,
    replay: 'lenient',
    clock: ctx.options.clock,
  });
  return (req, res) => {
    const verdict = authenticator.verify(req);
    if (!verdict.ok) {
      ctx.log.info({ path: req.originalUrl, reason: verdict.error.message }, 'recordings page: login refused');
      const answer = authenticator.unauthorized(req, verdict.error.stale);
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
      return;
    }
    const user = ctx.options.users.find((u) => u.user === verdict.value.account?.name);
    const account = user?.account ?? '';
    const body = page(account, ctx.recordings.list(account), ctx.store.containers(account).length);
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}

function page(account: string, recordings: RecordingInfo[], containers: number): string {
  const rows = recordings
    .map(
      (r) =>
        `<tr class="${r.status.replace(' ', '-')}"><td>${escape(r.container)}</td><td>${escape(r.userId)}</td><td>${escape(r.serial)}</td><td>${escape(r.triggerOnTime)}</td><td>${escape(r.status)}${r.reason ? `<br><small>${escape(r.reason)}</small>` : ''}</td><td>${r.clips}</td><td>${r.bytes}</td><td>${r.durationSeconds}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>bwc-emu content destination: ${escape(account)}</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}.complete{background:#e8f5e9}.not-transferred{background:#ffebee}</style>
</head><body>
<h1>Recordings of account ${escape(account)}</h1>
<p>${recordings.length} recording(s) in ${containers} container(s).</p>
<table><thead><tr><th>Container</th><th>User</th><th>Camera</th><th>Trigger on</th><th>Status</th><th>Clips</th><th>Bytes</th><th>Seconds</th></tr></thead>
<tbody>
${rows || '<tr><td colspan="8">No recordings yet.</td></tr>'}
</tbody></table>
</body></html>
`;
}

function escape(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
