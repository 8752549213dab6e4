/**
 * The destination's recordings pages over real sockets: the login (Basic or Digest, the
 * key as password, one account each), statuses (stalled by the injected clock), newest
 * first with paging, readable sizes, the detail page and downloads, rejected content,
 * escaping, every bad input's answer, and statuses that survive a restart.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { destinationStarter, login } from '../helpers/destinations';
import {
  getPage,
  record,
  refuseClip,
  refusedRecording,
  register,
  rejectedContent,
  rowOf,
  rowOrder,
} from '../helpers/destination-recordings';
import { digestRequest } from '../helpers/digest-request';
import { basicAuthorization, challengesOf, sendRequest } from '../helpers/http';
import { type DestinationHandle, ManualClock, recordingContainerName } from '../../src';

const NOW = Date.UTC(2024, 5, 1, 12, 0, 0);
const TRIGGER = NOW - 3600_000;
const enc = encodeURIComponent;

// Basic asked for on plain HTTP: getPage() logs in with it.
const start = destinationStarter({ basicOverHttp: true });

async function startAt(options: Parameters<typeof start>[0] = {}): Promise<DestinationHandle> {
  return start({ clock: new ManualClock(NOW), ...options });
}

describe('GET / (recordings page): login', () => {
  it('asks for credentials: 401 with Digest and Basic challenges, on every page path', async () => {
    const destination = await startAt();
    for (const path of ['/', '/?page=2', '/recordings/x_Y_20240601T110000Z', '/recordings/c/objects/o.mkv']) {
      const answer = await sendRequest(destination.url, { path });
      expect(answer.status).toBe(401);
      const challenges = challengesOf(answer);
      expect(
        challenges.some(
          (c) => /^Digest /.test(c) && /realm="bwc-emu content destination"/.test(c) && /nonce="/.test(c),
        ),
      ).toBe(true);
      expect(challenges.some((c) => /^Digest .*algorithm=SHA-256/.test(c))).toBe(true);
      expect(challenges).toContain('Basic realm="bwc-emu content destination"');
      expect(answer.body).not.toMatch(/Recordings of account/);
    }
  });

  it('refuses a wrong key, an unknown login, and a Swift token in place of credentials', async () => {
    const destination = await startAt();
    for (const authorization of [basicAuthorization('bws', 'wrong'), basicAuthorization('nobody', 'secret')]) {
      const answer = await sendRequest(destination.url, { path: '/', headers: { Authorization: authorization } });
      expect(answer.status).toBe(401);
      expect(challengesOf(answer).length).toBeGreaterThanOrEqual(2);
    }
    const session = await login(destination);
    expect((await sendRequest(destination.url, { path: '/', headers: { 'X-Auth-Token': session.token } })).status).toBe(
      401,
    );
  });

  it('with Digest (MD5 and SHA-256): the same pages', async () => {
    const destination = await startAt();
    const session = await login(destination);
    await register(session, 'alice', 'SN1');
    const container = await record(session, 'alice', 'SN1', TRIGGER, { clips: 1, complete: true });
    for (const algorithm of ['MD5', 'SHA-256'] as const) {
      for (const path of ['/', `/recordings/${enc(container)}`]) {
        const page = await digestRequest(destination.url, { path, username: 'bws', password: 'secret', algorithm });
        expect(page.challenge.status).toBe(401);
        expect(page.status).toBe(200);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(page.body).toContain('data-status="complete"');
      }
    }
    expect((await digestRequest(destination.url, { path: '/', username: 'bws', password: 'nope' })).status).toBe(401);
  });

  it("each login sees only its own account's recordings, details and objects", async () => {
    const destination = await startAt({
      users: [
        { user: 'bws', key: 'secret' },
        { user: 'other', key: 'pw' },
      ],
    });
    const mine = await login(destination);
    const theirs = await login(destination, 'other', 'pw');
    await register(mine, 'alice', 'SN1');
    await register(theirs, 'zed', 'SN9');
    const alice = await record(mine, 'alice', 'SN1', TRIGGER, { clips: 1, complete: true });
    const zed = await record(theirs, 'zed', 'SN9', TRIGGER, { clips: 1, complete: false });

    const bwsPage = await getPage(destination, '/');
    expect(bwsPage.body).toContain('Recordings of account AUTH_bws');
    expect(rowOrder(bwsPage.body, 'recordings')).toEqual([alice]);
    const otherPage = await digestRequest(destination.url, { path: '/', username: 'other', password: 'pw' });
    expect(otherPage.body).toContain('Recordings of account AUTH_other');
    expect(rowOrder(otherPage.body, 'recordings')).toEqual([zed]);
    expect((await getPage(destination, `/recordings/${enc(zed)}`)).status).toBe(404);
    expect((await getPage(destination, `/recordings/${enc(zed)}/objects/${TRIGGER / 1000}_r.mkv`)).status).toBe(404);
    expect((await getPage(destination, '/', { user: 'other', key: 'secret' })).status).toBe(401);
  });

  it('a tempauth-style login (account:user) opens its page with Digest', async () => {
    const destination = await startAt({ users: [{ user: 'team:alice', key: 'wonder' }] });
    const session = await login(destination, 'team:alice', 'wonder');
    await register(session, 'alice', 'SN1');
    const container = await record(session, 'alice', 'SN1', TRIGGER, { clips: 1, complete: true });
    const page = await digestRequest(destination.url, { path: '/', username: 'team:alice', password: 'wonder' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Recordings of account AUTH_team');
    expect(rowOf(page.body, container)).toContain('data-status="complete"');
  });
});

describe('GET / (recordings page): what it shows', () => {
  it('lists recordings newest first with status, readable sizes and times, and links', async () => {
    const destination = await startAt();
    const session = await login(destination);
    await register(session, 'first_last', 'BWC0001');
    const done = await record(session, 'first_last', 'BWC0001', TRIGGER, { clips: 2, complete: true, clipBytes: 1500 });
    const busy = await record(session, 'first_last', 'BWC0001', TRIGGER + 60_000, { clips: 1, complete: false });
    const refused = await refusedRecording(session, 'ghost', 'BWC0001', TRIGGER - 60_000);

    const page = await getPage(destination, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(page.body).toMatch(/^<!doctype html>/);
    expect(page.body).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page.body).not.toMatch(/<script|<link|src=|https?:\/\//);
    expect(page.body).toContain('Recordings of account AUTH_bws');
    expect(page.body).toContain('3 recordings: 1 complete, 1 transferring, 1 not transferred; newest first.');
    expect(rowOrder(page.body, 'recordings')).toEqual([busy, done, refused]);

    const doneRow = rowOf(page.body, done);
    expect(doneRow).toMatch(/^<tr class="s-complete" data-status="complete"/);
    expect(doneRow).toContain(`<a href="/recordings/${done}">${done}</a>`);
    expect(doneRow).toContain('<td data-label="User">first_last</td>');
    expect(doneRow).toContain('<td data-label="Camera">BWC0001</td>');
    expect(doneRow).toContain(
      `<time datetime="${new Date(TRIGGER).toISOString()}" title="${new Date(TRIGGER).toISOString()}">2024-06-01 11:00:00 UTC</time><small>1 h ago</small>`,
    );
    expect(doneRow).toContain('<td class="num" data-label="Clips">2</td>');
    expect(doneRow).toContain('<span title="3,000 bytes">3.0 kB</span>');
    expect(doneRow).toContain('<td class="num" data-label="Duration">2 s</td>');
    expect(rowOf(page.body, busy)).toContain(
      '<span class="badge">transferring</span><small>last activity just now</small>',
    );
    const refusedRow = rowOf(page.body, refused);
    expect(refusedRow).toMatch(/^<tr class="s-not-transferred" data-status="not transferred"/);
    expect(refusedRow).toContain(
      '<span class="badge">not transferred</span><small>user &#34;ghost&#34; is not registered',
    );
  });

  it('shows a transferring recording as stalled after stalledAfterMs without progress, on the fake clock', async () => {
    const clock = new ManualClock(NOW);
    const destination = await startAt({ clock, stalledAfterMs: 90_000 });
    const session = await login(destination);
    await register(session, 'alice', 'SN1');
    const container = await record(session, 'alice', 'SN1', TRIGGER, { clips: 1, complete: false });
    clock.advance(89_000);
    expect(rowOf((await getPage(destination, '/')).body, container)).toContain('data-status="transferring"');
    clock.advance(1_000);
    const page = await getPage(destination, '/');
    expect(page.body).toContain('An upload with no progress for 1 min 30 s shows as stalled.');
    expect(rowOf(page.body, container)).toMatch(/^<tr class="s-stalled" data-status="stalled"/);
    expect(rowOf(page.body, container)).toContain(
      '<span class="badge">stalled</span><small>last activity 1 min ago</small>',
    );
    // Progress (a clip stored) makes it transferring again; Complete ends it for good.
    await record(session, 'alice', 'SN1', TRIGGER, { clips: 2, complete: false });
    expect(rowOf((await getPage(destination, '/')).body, container)).toContain('data-status="transferring"');
    clock.advance(3600_000);
    expect(rowOf((await getPage(destination, '/')).body, container)).toContain('data-status="stalled"');
  });

  it('pages 50 recordings at a time, with links to newer and older pages', async () => {
    const destination = await startAt();
    const session = await login(destination);
    await register(session, 'alice', 'SN1');
    const names: string[] = [];
    for (let i = 0; i < 51; i++)
      names.push(await record(session, 'alice', 'SN1', TRIGGER - i * 60_000, { clips: 0, complete: false }));

    const first = await getPage(destination, '/');
    expect(rowOrder(first.body, 'recordings')).toEqual(names.slice(0, 50));
    expect(first.body).toContain('Recordings 1–50 of 51 (page 1 of 2)');
    expect(first.body).toContain('<a rel="next" href="/?page=2">Older »</a>');
    expect(first.body).not.toContain('rel="prev"');
    const second = await getPage(destination, '/?page=2');
    expect(second.status).toBe(200);
    expect(rowOrder(second.body, 'recordings')).toEqual([names[50]]);
    expect(second.body).toContain('<a rel="prev" href="/">« Newer</a>');
    expect(second.body).not.toContain('rel="next"');
  });

  it('answers a bad ?page= with 400 and a page past the last with 404, each saying why', async () => {
    const destination = await startAt();
    for (const query of ['page=0', 'page=abc', 'page=', 'page=1&page=2', 'rejected-page=-1', 'page=%3Cb%3E']) {
      const answer = await getPage(destination, `/?${query}`);
      expect(answer.status).toBe(400);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.body).toMatch(/is not a page number|once, not 2 times/);
      expect(answer.body).not.toContain('<b>');
    }
    const past = await getPage(destination, '/?page=2');
    expect(past.status).toBe(404);
    expect(past.body).toContain('Recordings: there is no page 2: 0 in all make 1 page(s).');
    expect((await getPage(destination, '/?rejected-page=3')).status).toBe(404);
    expect((await getPage(destination, '/?page=1&other=x')).status).toBe(200);
  });

  it('lists rejected content in its own section, newest first, linked to its objects', async () => {
    const destination = await startAt();
    const session = await login(destination);
    const older = await rejectedContent(session, '20240601T100000Z', 'aaaa-1');
    const unknown = await rejectedContent(session, 'UnknownTime', 'bbbb-2');
    const newer = await rejectedContent(session, '20240601T110000Z', 'cccc-3');
    const page = await getPage(destination, '/');
    expect(page.body).toContain('Rejected content (3)');
    expect(rowOrder(page.body, 'rejected')).toEqual([newer, older, unknown]);
    expect(rowOrder(page.body, 'recordings')).toEqual([]);
    expect(page.body).toContain('No recordings yet.');
    const row = rowOf(page.body, unknown);
    expect(row).toContain('<td data-label="Time">unknown</td>');
    expect(row).toContain('<span title="2,500 bytes">2.5 kB</span>');

    const detail = await getPage(destination, `/recordings/${newer}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toContain(`<h1>Rejected content <code>${newer}</code></h1>`);
    expect(detail.body).toContain(`href="/recordings/${newer}/objects/1_r.mkv"`);
  });

  it('with no recordings yet: says so', async () => {
    const destination = await startAt();
    const page = await getPage(destination, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('No recordings yet.');
    expect(page.body).toContain('0 recordings; newest first.');
    expect(page.body).toContain('No rejected content.');
  });

  it('HTML-escapes names a client chose, everywhere', async () => {
    const destination = await startAt();
    const session = await login(destination);
    const userId = 'R&D_<b>team';
    await register(session, userId, 'SN1');
    const container = await record(session, userId, 'SN1', TRIGGER, { clips: 1, complete: false });
    const refused = await refusedRecording(session, '"ghost"&<i>', 'SN1', TRIGGER);

    for (const path of ['/', `/recordings/${enc(container)}`, `/recordings/${enc(refused)}`]) {
      const page = await getPage(destination, path);
      expect(page.status).toBe(200);
      expect(page.body).not.toContain('<b>');
      expect(page.body).not.toContain('R&D');
      expect(page.body).not.toContain('<i>');
      // Every & left in the page starts an entity.
      expect(page.body.match(/&(?!#\d+;)/g)).toBeNull();
    }
    const list = (await getPage(destination, '/')).body;
    const row = rowOf(list, 'R&#38;D_&#60;b&#62;team_SN1_20240601T110000Z');
    expect(row).toContain('<td data-label="User">R&#38;D_&#60;b&#62;team</td>');
    expect(row).toContain(`href="/recordings/${enc(container)}"`);
    expect(list).toContain('&#34;ghost&#34;&#38;&#60;i&#62;_SN1_20240601T110000Z');
  });

  it('HEAD / with credentials: 200 with the length of the page and no body; POST is 405', async () => {
    const destination = await startAt();
    const get = await getPage(destination, '/');
    const head = await getPage(destination, '/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body)));
    const post = await getPage(destination, '/', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});

describe('recordings follow deletes over the wire', () => {
  it('a deleted clip leaves the totals; a deleted container leaves the list', async () => {
    const destination = await startAt();
    const session = await login(destination);
    await register(session, 'alice', 'SN1');
    const name = await record(session, 'alice', 'SN1', NOW - 60_000, { clips: 2, complete: true });
    const [first, second] = (await session.send('GET', `/${encodeURIComponent(name)}`)).body.split('\n');
    const before = destination.recordings().find((r) => r.container === name);
    expect(before?.clips).toBe(2);
    expect((await session.send('DELETE', `/${encodeURIComponent(name)}/${encodeURIComponent(first)}`)).status).toBe(
      204,
    );
    expect(destination.recordings().find((r) => r.container === name)?.clips).toBe(1);
    expect((await session.send('DELETE', `/${encodeURIComponent(name)}/${encodeURIComponent(second)}`)).status).toBe(
      204,
    );
    expect((await session.send('DELETE', `/${encodeURIComponent(name)}`)).status).toBe(204);
    expect(destination.recordings().map((r) => r.container)).not.toContain(name);
    expect((await getPage(destination, '/')).body).not.toContain(name);
  });
});

describe('GET /recordings/{container} (detail page) and its objects', () => {
  it('lists the clips with size, duration, ETag and decoded metadata, and the container metadata', async () => {
    const destination = await startAt();
    const session = await login(destination);
    await register(session, 'alice', 'SN1');
    const container = await record(session, 'alice', 'SN1', TRIGGER, {
      clips: 2,
      complete: true,
      metadata: { Timezone: 'Europe%2FStockholm', Triggeron: 'Button' },
    });
    const page = await getPage(destination, `/recordings/${enc(container)}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<h1>Recording <code>${container}</code></h1>`);
    expect(page.body).toContain('data-status="complete"');
    expect(page.body).toContain('<dt>Clips</dt><dd>2</dd>');
    expect(page.body).toContain('<h2>Objects (2)</h2>');
    const clip = `${TRIGGER / 1000}_r.mkv`;
    expect(page.body).toContain(`<a href="/recordings/${container}/objects/${clip}">${clip}</a>`);
    expect(page.body).toContain(`<code>${createHash('md5').update('c'.repeat(100)).digest('hex')}</code>`);
    expect(page.body).toContain('<dt>Startlocation</dt><dd><span title="J%C3%B6nk%C3%B6ping">Jönköping</span></dd>');
    expect(page.body).toContain('<dt>Timezone</dt><dd><span title="Europe%2FStockholm">Europe/Stockholm</span></dd>');
    expect(page.body).toContain('<dt>Status</dt><dd>Complete</dd>');
    expect(page.body).toContain('<td class="num" data-label="Duration">1 s</td>');
  });

  it('downloads an object through the page login, as an attachment that may run nothing', async () => {
    const destination = await startAt();
    const session = await login(destination);
    await register(session, 'alice', 'SN1');
    const container = await record(session, 'alice', 'SN1', TRIGGER, { clips: 1, complete: true, clipBytes: 321 });
    const path = `/recordings/${enc(container)}/objects/${TRIGGER / 1000}_r.mkv`;
    const got = await getPage(destination, path);
    expect(got.status).toBe(200);
    expect(got.body).toBe('c'.repeat(321));
    expect(got.headers['content-type']).toBe('video/x-matroska');
    expect(got.headers['content-disposition']).toBe(
      `attachment; filename="${TRIGGER / 1000}_r.mkv"; filename*=UTF-8''${TRIGGER / 1000}_r.mkv`,
    );
    expect(got.headers['content-security-policy']).toBe('sandbox');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers.etag).toMatch(/^[0-9a-f]{32}$/);
    const head = await getPage(destination, path, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('321');
    expect(head.body).toBe('');
    expect((await sendRequest(destination.url, { path })).status).toBe(401);
  });

  it('names a download by the last part of the object name: quotes and non-ASCII kept out of the plain filename', async () => {
    const destination = await startAt();
    const session = await login(destination);
    const container = await rejectedContent(session, 'UnknownTime', 'dddd-4');
    const names: [string, string][] = [
      [
        'notes/"Bericht" ü;x.txt',
        `attachment; filename="_Bericht_ _;x.txt"; filename*=UTF-8''%22Bericht%22%20%C3%BC%3Bx.txt`,
      ],
      ["it's (1)*.txt", `attachment; filename="it's (1)*.txt"; filename*=UTF-8''it%27s%20%281%29%2A.txt`],
      ['folder/', `attachment; filename="object"; filename*=UTF-8''object`],
    ];
    for (const [object, disposition] of names) {
      const encoded = object.split('/').map(enc).join('/');
      expect((await session.send('PUT', `/${enc(container)}/${encoded}`, { body: 'n' })).status).toBe(201);
      const got = await getPage(destination, `/recordings/${enc(container)}/objects/${encoded}`);
      expect([object, got.status, got.headers['content-disposition']]).toEqual([object, 200, disposition]);
    }
  });

  it('shows a recording refused before its container existed, with the reason and no objects', async () => {
    const destination = await startAt();
    const session = await login(destination);
    const refused = await refusedRecording(session, 'ghost', 'SN1', TRIGGER);
    const page = await getPage(destination, `/recordings/${enc(refused)}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('data-status="not transferred"');
    expect(page.body).toContain('user &#34;ghost&#34; is not registered');
    expect(page.body).toContain('<dt>Container</dt><dd>never created (refused)</dd>');
    expect(page.body).toContain('No objects stored.');
  });

  it('answers 404 for what is not a recording, 400 for a path that does not decode', async () => {
    const destination = await startAt();
    const session = await login(destination);
    await register(session, 'alice', 'SN1');
    const container = await record(session, 'alice', 'SN1', TRIGGER, { clips: 1, complete: false });
    const cases: [string, number, RegExp][] = [
      ['/recordings/nothing_here_20240601T110000Z', 404, /has no recording or rejected content named/],
      ['/recordings/Users', 404, /has no recording or rejected content named &#34;Users&#34;/],
      [`/recordings/${enc(container)}/objects/missing.mkv`, 404, /There is no object &#34;missing.mkv&#34;/],
      ['/recordings/%E0%A4%A', 400, /not valid percent-encoded UTF-8/],
      [`/recordings/${enc(container)}/objects/%FF`, 400, /not valid percent-encoded UTF-8/],
      ['/recordings', 404, /There is no page \/recordings/],
      [`/recordings/${enc(container)}/clips`, 404, /There is no page/],
    ];
    for (const [path, status, body] of cases) {
      const answer = await getPage(destination, path);
      expect([path, answer.status]).toEqual([path, status]);
      expect(answer.body).toMatch(body);
      expect(answer.body).toContain('<a href="/">All recordings</a>');
    }
    // Other paths are not the pages': the destination's own 404.
    expect((await getPage(destination, '/nowhere')).body).not.toContain('All recordings');
  });
});

describe('the recordings page after a restart', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('shows refused recordings not transferred with their reasons, and stalled uploads stalled', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bwc-page-restart-'));
    dirs.push(dataDir);
    const clock = new ManualClock(NOW);
    const first = await start({ dataDir, clock });
    const session = await login(first);
    await register(session, 'alice', 'SN1');
    const noContainer = await refusedRecording(session, 'ghost', 'SN1', TRIGGER);
    const badClip = await record(session, 'alice', 'SN1', TRIGGER + 60_000, { clips: 1, complete: false });
    await refuseClip(session, badClip);
    const badPost = await record(session, 'alice', 'SN1', TRIGGER + 120_000, { clips: 1, complete: false });
    const post = await session.send('POST', `/${enc(badPost)}`, {
      headers: { 'X-Container-Meta-Starttime': '1717236000', 'X-Container-Meta-Stoptime': '1717230000' },
    });
    expect(post.status).toBe(400);
    const busy = await record(session, 'alice', 'SN1', TRIGGER + 180_000, { clips: 1, complete: false });
    const done = await record(session, 'alice', 'SN1', TRIGGER + 240_000, { clips: 1, complete: true });
    const before = (await getPage(first, '/')).body;
    await first.close();

    clock.advance(10 * 60_000);
    const second = await start({ dataDir, clock, port: 0 });
    const page = await getPage(second, '/');
    expect(page.status).toBe(200);
    expect(rowOrder(page.body, 'recordings')).toEqual(rowOrder(before, 'recordings'));
    expect(rowOf(page.body, noContainer)).toContain('data-status="not transferred"');
    expect(rowOf(page.body, noContainer)).toContain('user &#34;ghost&#34; is not registered');
    expect(rowOf(page.body, badClip)).toContain('data-status="not transferred"');
    expect(rowOf(page.body, badClip)).toContain('clip 0_bad.mkv has no duration');
    expect(rowOf(page.body, badPost)).toContain('data-status="not transferred"');
    expect(rowOf(page.body, badPost)).toContain('StopTime 1717230000 is before StartTime 1717236000');
    expect(rowOf(page.body, busy)).toContain('data-status="stalled"');
    expect(rowOf(page.body, busy)).toContain('last activity 10 min ago');
    expect(rowOf(page.body, done)).toContain('data-status="complete"');
    expect(second.recordings().find((r) => r.container === noContainer)).toMatchObject({
      status: 'not transferred',
      userId: 'ghost',
    });
  });

  it('forgets a refused container PUT accepted later (the user registered meanwhile), across restarts too', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bwc-page-restart-'));
    dirs.push(dataDir);
    const first = await start({ dataDir, clock: new ManualClock(NOW) });
    const session = await login(first);
    const container = await refusedRecording(session, 'late', 'SN1', TRIGGER);
    await register(session, 'late', 'SN1');
    await record(session, 'late', 'SN1', TRIGGER, { clips: 1, complete: true });
    await first.close();
    const second = await start({ dataDir, clock: new ManualClock(NOW) });
    expect(rowOf((await getPage(second, '/')).body, container)).toContain('data-status="complete"');
    expect(container).toBe(recordingContainerName('late', 'SN1', TRIGGER));
  });
});
