import fc from 'fast-check';
import { parseUpgradeTarget } from '../../../src/events/upgrade-target';
import { propertyRuns } from '../../helpers/fast-check-config';

/** What the stream endpoint read before: the WHATWG URL parser on every target. */
function byUrlParser(target: string): { pathname: string; query: [string, string][] } | undefined {
  try {
    const url = new URL(target, 'http://device.invalid');
    return { pathname: url.pathname, query: [...url.searchParams] };
  } catch {
    return undefined;
  }
}

function parsed(target: string): { pathname: string; query: [string, string][] } | undefined {
  const t = parseUpgradeTarget(target);
  return t && { pathname: t.pathname, query: [...t.searchParams] };
}

describe('parseUpgradeTarget', () => {
  it('splits a plain target without the URL parser, as the URL parser would', () => {
    expect(parsed('/svc/ws-data-stream?sources=events&wssession=abc')).toEqual({
      pathname: '/svc/ws-data-stream',
      query: [
        ['sources', 'events'],
        ['wssession', 'abc'],
      ],
    });
    expect(parsed('/x')).toEqual({ pathname: '/x', query: [] });
  });

  it.each([
    '/a/../svc/ws-data-stream?sources=events',
    '/svc/./ws-data-stream',
    '/sv%63/ws-data-stream',
    'http://other.example/svc/ws-data-stream?sources=events',
    '/svc/ws-data-stream?sources=ev%65nts#frag',
    '/a b?c=d e',
    '\\svc\\ws-data-stream',
    '//host/path',
    '',
  ])('normalises %j as the URL parser does', (target) => {
    expect(parsed(target)).toEqual(byUrlParser(target));
  });

  it('agrees with the URL parser on any target', () => {
    const piece = fc.constantFrom(
      '/',
      '?',
      '&',
      '=',
      '.',
      '..',
      '%',
      '%2e',
      '%41',
      '%zz',
      '#',
      ' ',
      '\t',
      '+',
      '\\',
      ':',
      '@',
      'a',
      'é',
      'sources',
      'events',
      'wssession',
      'svc',
      'ws-data-stream',
      '~',
      "'",
      '"',
      '<',
      ';',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), fc.boolean(), (pieces, rooted) => {
        const target = (rooted ? '/' : '') + pieces.join('');
        expect(parsed(target)).toEqual(byUrlParser(target));
      }),
      propertyRuns(3000),
    );
  });
});
