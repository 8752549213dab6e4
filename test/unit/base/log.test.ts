import { createLogger, redactUrl } from '../../../src/base/log';

describe('redactUrl', () => {
  it.each([
    ['/svc/ws-data-stream?sources=events&wssession=SECRET', '/svc/ws-data-stream?sources=events&wssession=[redacted]'],
    ['/svc/ws-data-stream?wssession=SECRET&sources=events', '/svc/ws-data-stream?wssession=[redacted]&sources=events'],
    ['/x?WSSESSION=abc#frag', '/x?WSSESSION=[redacted]#frag'],
    ['/x?mywssession=abc', '/x?mywssession=abc'],
    ['/svc-cgi/featureflag.cgi', '/svc-cgi/featureflag.cgi'],
  ])('%s -> %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('createLogger', () => {
  function capture(format: 'json' | 'pretty'): { lines: string[]; log: ReturnType<typeof createLogger> } {
    const lines: string[] = [];
    return { lines, log: createLogger({ level: 'info', format, write: (line) => lines.push(line) }) };
  }

  it('is silent by default', () => {
    const lines: string[] = [];
    createLogger({ write: (line) => lines.push(line) }).error('nobody hears this');
    expect(lines).toEqual([]);
  });

  it('redacts Authorization headers and tokens', () => {
    const { lines, log } = capture('json');
    log.info(
      {
        authorization: 'Digest secret',
        headers: { authorization: 'Basic secret' },
        token: 'T0KEN',
        wssession: 'T0KEN',
      },
      'hello',
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/secret|T0KEN/);
    expect(JSON.parse(lines[0])).toMatchObject({
      msg: 'hello',
      authorization: '[redacted]',
      headers: { authorization: '[redacted]' },
      token: '[redacted]',
      wssession: '[redacted]',
    });
  });

  it('pretty format writes one readable line with the fields', () => {
    const { lines, log } = capture('pretty');
    log.warn({ user: 'root', reason: 'two words' }, 'authentication failed');
    expect(lines).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d WARN {2}authentication failed user=root reason="two words"\n$/),
    ]);
  });

  it('respects the level', () => {
    const { lines, log } = capture('json');
    log.debug('hidden');
    log.info('shown');
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['shown']);
  });
});
