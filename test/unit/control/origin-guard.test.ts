/**
 * Which requests come from another origin than the control API's own (pure), the 403 the
 * router answers, what the guard leaves alone (a tool's request), and how it logs a flood.
 */
import express from 'express';
import request from 'supertest';
import { ManualClock } from '../../../src/base/clock';
import { createLogger } from '../../../src/base/log';
import { crossOriginReason, originGuard, type RequestOrigin } from '../../../src/control/origin-guard';
import { expectRefusal } from './answers';
import { startControl } from './fake-emulator';

const own: RequestOrigin = { protocol: 'http', host: '127.0.0.1:8080', origin: undefined, fetchSite: undefined };

describe('crossOriginReason', () => {
  it.each([
    ['no Origin and no Sec-Fetch-Site (a tool)', {}],
    ['its own origin', { origin: 'http://127.0.0.1:8080' }],
    ['its own origin in capitals', { origin: 'HTTP://127.0.0.1:8080' }],
    ['the default port written out', { host: 'camera.local', origin: 'http://camera.local:80' }],
    ['the default port left out of Origin', { host: 'camera.local:80', origin: 'http://camera.local' }],
    ['HTTPS on its default port', { protocol: 'https', host: 'camera.local', origin: 'https://camera.local:443' }],
    ['an IPv6 host', { host: '[::1]:8080', origin: 'http://[::1]:8080' }],
    ['same-origin and same-site fetches', { origin: 'http://127.0.0.1:8080', fetchSite: 'same-origin' }],
    ['a typed URL', { fetchSite: 'none' }],
    ['a same-site fetch without Origin', { fetchSite: 'same-site' }],
  ])('serves %s', (_what, fields: Partial<RequestOrigin>) => {
    expect(crossOriginReason({ ...own, ...fields })).toBeUndefined();
  });

  it.each([
    ['Origin null', { origin: 'null' }],
    ['another host', { origin: 'http://evil.example' }],
    ['another port', { origin: 'http://127.0.0.1:8081' }],
    ['another name for the same address', { origin: 'http://localhost:8080' }],
    ['another scheme', { origin: 'https://127.0.0.1:8080' }],
    ['an Origin that is no URL', { origin: 'garbage' }],
    ['a file: origin', { origin: 'file:///tmp/page.html' }],
    ['an Origin with no Host to compare it with', { host: undefined, origin: 'http://127.0.0.1:8080' }],
    ['Sec-Fetch-Site: cross-site', { fetchSite: 'cross-site' }],
    ['Sec-Fetch-Site: cross-site with its own Origin', { origin: 'http://127.0.0.1:8080', fetchSite: 'Cross-Site' }],
  ])('refuses %s', (_what, fields: Partial<RequestOrigin>) => {
    expect(crossOriginReason({ ...own, ...fields })).toMatch(/serves its own origin only$/);
  });

  it('quotes a long Origin shortened', () => {
    const reason = crossOriginReason({ ...own, origin: `http://${'a'.repeat(1000)}.example` }) ?? '';
    expect(reason.length).toBeLessThan(400);
    expect(reason).toContain('...');
  });
});

describe('the origin guard on the router', () => {
  it('refuses another origin with 403 CROSS_ORIGIN, logged, before the token is checked; the emulator untouched', async () => {
    const ctl = await startControl({ token: 't' });
    try {
      const res = await request(ctl.server)
        .post('/_emu/reset')
        .set('Origin', 'http://evil.example')
        .set('Content-Type', 'text/plain')
        .send('{}');
      expect(expectRefusal(res, 403, 'CROSS_ORIGIN')).toContain('"http://evil.example"');
      expect(ctl.emulator.calls).toEqual([]);
      expect(ctl.logs).toContainEqual(expect.objectContaining({ level: 30, status: 403, code: 'CROSS_ORIGIN' }));
    } finally {
      await ctl.close();
    }
  });

  it('serves its own origin', async () => {
    const ctl = await startControl();
    try {
      await request(ctl.server).post('/_emu/reset').set('Origin', ctl.url).expect(204);
    } finally {
      await ctl.close();
    }
  });
});

describe('the origin guard on its own', () => {
  /** An app with only the guard, `trust proxy` counting its runs, and the lines it logs. */
  function guarded(clock = new ManualClock()) {
    const lines: Array<{ level: number; msg: string; [field: string]: unknown }> = [];
    const log = createLogger({
      level: 'debug',
      write: (line) => void lines.push(JSON.parse(line) as (typeof lines)[0]),
    });
    const trusted = { runs: 0 };
    const app = express();
    app.set('trust proxy', () => {
      trusted.runs++;
      return false;
    });
    app.use(originGuard(log, clock));
    app.use((_req, res) => void res.status(204).end());
    return { app, lines, trusted, clock };
  }

  it('passes a request with neither Origin nor Sec-Fetch-Site on at once, without working out its scheme', async () => {
    const { app, trusted } = guarded();
    await request(app).post('/reset').expect(204);
    expect(trusted.runs).toBe(0);
    await request(app).post('/reset').set('Origin', 'http://evil.example').expect(403);
    expect(trusted.runs).toBeGreaterThan(0);
  });

  it('logs the first 10 refusals of 10 s one by one, and the rest in one warning with their count', async () => {
    const { app, lines, clock } = guarded();
    for (let i = 0; i < 25; i++) await request(app).post('/faults').set('Origin', 'http://evil.example').expect(403);
    const refused = () => lines.filter((line) => line.msg === 'control API: refused');
    expect(refused()).toHaveLength(10);
    expect(lines.filter((line) => line.level === 40)).toEqual([]);
    clock.advance(10_000);
    const res = await request(app).post('/faults').set('Sec-Fetch-Site', 'cross-site').expect(403);
    expect(res.body).toMatchObject({ error: { code: 'CROSS_ORIGIN' } });
    expect(lines.filter((line) => line.level === 40)).toEqual([
      expect.objectContaining({
        msg: 'control API: cross-origin requests refused, not logged one by one',
        count: 15,
        intervalMs: 10_000,
      }),
    ]);
    expect(refused()).toHaveLength(11);
  });
});
