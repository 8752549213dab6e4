/** Which requests come from another origin than the control API's own (pure), and the 403 the router answers. */
import request from 'supertest';
import { crossOriginReason, type RequestOrigin } from '../../../src/control/origin-guard';
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
