/** `headerProblem`: the header-count and header-line-length limits behind the 431 answers. */
import { headerProblem } from '../../../src/base/listening-server';

/** Node's rawHeaders for `count` lines `X-H{i}: v`. */
function lines(count: number): string[] {
  return Array.from({ length: count }, (_, i) => [`X-H${i}`, 'v']).flat();
}

/** rawHeaders of one line `name: value` that is `bytes` long (name, ': ', value). */
function lineOf(name: string, bytes: number): string[] {
  return [name, 'a'.repeat(bytes - name.length - 2)];
}

describe('headerProblem: line count', () => {
  it('as many lines as allowed is fine, one more is refused', () => {
    expect(headerProblem(lines(201), { maxLines: 201 })).toBeUndefined();
    expect(headerProblem(lines(202), { maxLines: 201 })).toBe('more than 201 header lines');
  });

  it('no header at all is fine', () => {
    expect(headerProblem([], { maxLines: 0 })).toBeUndefined();
    expect(headerProblem([], { maxLines: 201, maxLineBytes: 10 })).toBeUndefined();
  });

  it('the count is judged before the line lengths', () => {
    expect(headerProblem([...lines(3), ...lineOf('X-Long', 100)], { maxLines: 3, maxLineBytes: 50 })).toBe(
      'more than 3 header lines',
    );
  });
});

describe('headerProblem: line length (name, ": ", value and CRLF)', () => {
  it('a line shorter than maxLineBytes with its CRLF is fine; one reaching it is refused (Swift 2.30.1: 8189 served, 8190 refused)', () => {
    expect(headerProblem(lineOf('X-Long', 8189), { maxLines: 200, maxLineBytes: 8192 })).toBeUndefined();
    expect(headerProblem(lineOf('X-Long', 8190), { maxLines: 200, maxLineBytes: 8192 })).toBe(
      'header X-Long is 8192 bytes long with its CRLF (less than 8192 are taken)',
    );
  });

  it('names the first line too long, wherever it is', () => {
    const raw = [...lines(10), ...lineOf('X-First', 60), ...lineOf('X-Second', 70)];
    expect(headerProblem(raw, { maxLines: 20, maxLineBytes: 50 })).toBe(
      'header X-First is 62 bytes long with its CRLF (less than 50 are taken)',
    );
  });

  it('counts the bytes received: Node hands them over one character per byte', () => {
    // 5,000 bytes 0xE9 arrive as 5,000 characters "é"; as UTF-8 they would count twice.
    const value = Buffer.alloc(5000, 0xe9).toString('latin1');
    expect(headerProblem(['X-Meta', value], { maxLines: 5, maxLineBytes: 8192 })).toBeUndefined();
    expect(headerProblem(['X', value], { maxLines: 5, maxLineBytes: 5005 })).toBe(
      'header X is 5005 bytes long with its CRLF (less than 5005 are taken)',
    );
  });

  it('without maxLineBytes only the count is judged', () => {
    expect(headerProblem(lineOf('X-Long', 100_000), { maxLines: 1 })).toBeUndefined();
  });
});
