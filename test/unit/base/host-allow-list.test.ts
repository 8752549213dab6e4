/**
 * The Host check against DNS rebinding: only the server's own names pass (loopback names and
 * addresses, the listen address, the allowed names), whatever the port, the case, a trailing
 * dot or IPv6 brackets; every other name, and a malformed header, does not.
 */
import fc from 'fast-check';
import { allowedHostProblem, hostAllowList, hostnameOf, isAllowedHost } from '../../../src/base/host-allow-list';
import { propertyRuns } from '../../helpers/fast-check-config';

const LOCAL = hostAllowList('127.0.0.1');
const ALLOWED = hostAllowList('127.0.0.1', ['emu.test', '.corp.test', '192.168.1.5', '[fd00::5]']);

/** A DNS label: letters and digits, `-` inside. */
const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);

/** A host name of one to four labels. */
const hostname = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));

/** `name` as a client may write it in Host: any case, maybe a trailing dot, maybe a port. */
function written(name: string): fc.Arbitrary<string> {
  const v6 = name.includes(':');
  return fc
    .record({
      upper: fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }),
      dot: fc.boolean(),
      port: fc.option(fc.integer({ min: 0, max: 65535 })),
    })
    .map(({ upper, dot, port }) => {
      const cased = [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
      const host = v6 ? `[${cased}]` : `${cased}${dot ? '.' : ''}`;
      return port === null ? host : `${host}:${port}`;
    });
}

/** Whether `name` is a loopback name by the rules: `localhost`, under `.localhost`, 127.x.y.z. */
function loopbackName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(name);
}

/** Whether `name` is one of ALLOWED's by the rules (loopback, or listed). */
function ownName(name: string): boolean {
  return loopbackName(name) || ['emu.test', 'corp.test', '192.168.1.5'].includes(name) || name.endsWith('.corp.test');
}

describe('isAllowedHost', () => {
  it('lets the loopback names through on any port, in any case, with a trailing dot, IPv6 in brackets', () => {
    const own = fc.oneof(
      fc.constant('localhost'),
      hostname.map((name) => `${name}.localhost`),
      fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `127.${a}.${b}.${c}`),
      fc.constantFrom('::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::ffff:7f00:1'),
    );
    fc.assert(
      fc.property(own.chain(written), (host) => isAllowedHost(host, LOCAL)),
      propertyRuns(500),
    );
  });

  it('lets no other name through, on any port: only the allowed names and the names under an allowed .suffix', () => {
    const names = fc.oneof(
      hostname,
      fc.constantFrom(
        'emu.test',
        'x.corp.test',
        'corp.test',
        'localhost',
        'emu.test.evil',
        'xcorp.test',
        'localhost.test',
      ),
      fc.tuple(label, fc.constantFrom('emu.test', 'corp.test', 'localhost', '127.0.0.1')).map(([a, b]) => `${a}.${b}`),
    );
    fc.assert(
      fc.property(
        names.chain((name) => fc.tuple(fc.constant(name), written(name))),
        ([name, host]) =>
          isAllowedHost(host, ALLOWED) === ownName(name) && isAllowedHost(host, LOCAL) === loopbackName(name),
      ),
      propertyRuns(1000),
    );
  });

  it('allows the listed names and addresses, and the configured host', () => {
    for (const host of [
      'emu.test',
      'EMU.TEST:8080',
      'emu.test.',
      'a.b.corp.test:1',
      'corp.test',
      '192.168.1.5:80',
      '[fd00::5]:8080',
      '[FD00:0::5]',
    ])
      expect([host, isAllowedHost(host, ALLOWED)]).toEqual([host, true]);
    const named = hostAllowList('camera.lan');
    expect(isAllowedHost('Camera.LAN:8080', named)).toBe(true);
    expect(isAllowedHost('other.lan:8080', named)).toBe(false);
  });

  it('refuses foreign names and addresses, look-alikes and malformed headers', () => {
    for (const host of [
      'evil.name:8080',
      'evil.name',
      'localhost.evil.name',
      'evilcorp.test',
      'corp.test.evil',
      '127.0.0.1.evil.name',
      '10.0.0.1',
      '[::2]',
      '[fd00::6]:8080',
      '',
      ' ',
      'localhost:99999',
      'localhost:80:80',
      'user@localhost',
      'localhost/x',
      '[::1',
      '[evil]:80',
    ])
      expect([host, isAllowedHost(host, ALLOWED)]).toEqual([host, false]);
  });

  it('takes any IP address when listening on every address, never a name', () => {
    for (const wildcard of ['0.0.0.0', '::', '[::]']) {
      const list = hostAllowList(wildcard);
      expect(['10.1.2.3:8080', '[2001:db8::1]:8080', 'localhost'].map((h) => isAllowedHost(h, list))).toEqual([
        true,
        true,
        true,
      ]);
      expect(isAllowedHost('evil.name:8080', list)).toBe(false);
    }
  });

  it('allows a request without a Host header (HTTP/1.0: no browser sends one)', () => {
    expect(isAllowedHost(undefined, LOCAL)).toBe(true);
  });
});

describe('hostnameOf', () => {
  it('reads the name without port, case, trailing dot or brackets', () => {
    expect(['LocalHost.:8080', '[0:0:0:0:0:0:0:1]:80', '127.0.0.1', 'a.b'].map(hostnameOf)).toEqual([
      'localhost',
      '::1',
      '127.0.0.1',
      'a.b',
    ]);
  });
});

describe('allowedHostProblem', () => {
  it('takes names, .suffixes and addresses; refuses ports, schemes, paths and wildcards', () => {
    for (const ok of ['emu.test', '.corp.test', 'EMU.test.', '192.168.1.5', '[fd00::5]', 'fd00::5', 'my_host'])
      expect([ok, allowedHostProblem(ok)]).toEqual([ok, undefined]);
    for (const bad of ['', 'emu.test:8080', 'http://emu.test', 'emu.test/x', '*', '*.corp.test', 'a..b', 'ü.test'])
      expect(allowedHostProblem(bad)).toMatch(/must be a host name/);
  });
});
