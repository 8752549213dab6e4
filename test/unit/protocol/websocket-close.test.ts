import fc from 'fast-check';
import { closeFrameProblem, isCloseCode } from '../../../src/protocol/websocket-close';
import { propertyRuns } from '../../helpers/fast-check-config';

describe('WebSocket close frames', () => {
  it.each([1000, 1001, 1003, 1007, 1011, 1013, 1014, 3000, 4000, 4999])('a server may send %d', (code) => {
    expect(isCloseCode(code)).toBe(true);
  });

  it.each([0, 999, 1004, 1005, 1006, 1015, 2999, 5000, 1000.5, Number.NaN])('a server may not send %d', (code) => {
    expect(isCloseCode(code)).toBe(false);
  });

  it('names what is wrong: the code, or a reason over 123 bytes of UTF-8', () => {
    expect(closeFrameProblem(1000, 'bye')).toBeUndefined();
    expect(closeFrameProblem(1006, '')).toBe(
      'close code 1006 is not one a server may send (1000-1003, 1007-1014, 3000-4999)',
    );
    expect(closeFrameProblem(1000, 'é'.repeat(62))).toBe('a close reason is at most 123 bytes, not 124');
    expect(closeFrameProblem(1000, 'x'.repeat(123))).toBeUndefined();
  });

  it('agrees with the ws library on every code in 0-6000', () => {
    // ws's own rule (lib/validation.js isValidStatusCode), for what a server sends.
    const wsAccepts = (code: number) =>
      (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) ||
      (code >= 3000 && code <= 4999);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6000 }), (code) => expect(isCloseCode(code)).toBe(wsAccepts(code))),
      propertyRuns(500),
    );
  });
});
