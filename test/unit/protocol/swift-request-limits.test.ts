/**
 * The transfer codings Swift takes (`chunked` alone; stock Swift 2.30.1 answers
 * `Transfer-Encoding: gzip, chunked` with 501) and its header limits.
 */
import {
  MAX_HEADER_LINE_BYTES,
  MAX_HEADER_LINES,
  transferCodingProblem,
} from '../../../src/protocol/swift-request-limits';

describe('transferCodingProblem', () => {
  it('no Transfer-Encoding is no problem', () => {
    expect(transferCodingProblem(undefined)).toBeUndefined();
  });

  it.each(['chunked', 'Chunked', 'CHUNKED', ' chunked '])('%j alone is taken', (value) => {
    expect(transferCodingProblem(value)).toBeUndefined();
  });

  it('gzip, chunked is refused, naming gzip (stock Swift 2.30.1: 501)', () => {
    const problem = transferCodingProblem('gzip, chunked');
    expect(problem).toMatch(/^Not Implemented: /);
    expect(problem).toContain('gzip');
    expect(problem).not.toContain('\n');
  });

  it.each([
    ['identity, chunked', 'identity'],
    ['GZIP, Chunked', 'gzip'],
    ['deflate,chunked', 'deflate'],
    ['gzip', 'gzip'],
    ['x-custom', 'x-custom'],
    ['gzip, deflate, chunked', 'gzip, deflate'],
  ])('%j is refused, naming %s', (value, named) => {
    expect(transferCodingProblem(value)).toContain(`Transfer-Encoding ${JSON.stringify(value)} is not supported`);
    expect(transferCodingProblem(value)?.toLowerCase()).toContain(named);
  });

  it('a trailing comma is refused (stock Swift 2.30.1: 501)', () => {
    expect(transferCodingProblem('chunked,')).toBeDefined();
  });

  it('chunked twice is refused too (only one coding is taken)', () => {
    expect(transferCodingProblem('chunked, chunked')).toBeDefined();
  });

  it('an empty value is refused', () => {
    expect(transferCodingProblem('')).toBeDefined();
  });
});

describe('header limits', () => {
  it("one header line may be as long as Swift's max_header_size", () => {
    expect(MAX_HEADER_LINE_BYTES).toBe(8192);
  });

  it('a request may carry about 1.6 times MAX_HEADER_COUNT (126) header lines', () => {
    // Stock Swift 2.30.1 served 200 lines and answered 431 to 201 and 202 (see the integration test).
    expect(MAX_HEADER_LINES).toBeGreaterThanOrEqual(200);
    expect(MAX_HEADER_LINES).toBeLessThanOrEqual(201);
  });
});
