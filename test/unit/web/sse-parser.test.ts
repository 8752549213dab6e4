import fc from 'fast-check';
import { type SseEvent, SseParser } from '../../../web/dashboard/sse-parser';
import { propertyRuns } from '../../helpers/fast-check-config';

/** The events of `chunks` pushed one after the other into a new parser. */
function parse(...chunks: string[]): SseEvent[] {
  const parser = new SseParser();
  return chunks.flatMap((chunk) => parser.push(chunk));
}

/** `text` cut at `cuts` (positions, any order, repeats allowed). */
function cutAt(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  return [...points, text.length].map((end, i) => text.slice(i === 0 ? 0 : points[i - 1], end));
}

const FEED =
  ': hello\n\nevent: sessions\ndata: {"sessions":[]}\n\n' +
  'event: journal\r\nid: 42\r\ndata: {"entries":\r\ndata: [],"skipped":0}\r\n\r\n' +
  'event: scenario\rdata: {"name":"fast"}\r\r';

const FEED_EVENTS: SseEvent[] = [
  { event: 'sessions', data: '{"sessions":[]}', id: undefined },
  { event: 'journal', data: '{"entries":\n[],"skipped":0}', id: '42' },
  { event: 'scenario', data: '{"name":"fast"}', id: '42' },
];

describe('SseParser (the dashboard reading the feed)', () => {
  it('reads events ended by LF, CRLF and CR; comments are skipped; data lines are joined; the id carries on', () => {
    expect(parse(FEED)).toEqual(FEED_EVENTS);
  });

  it('reads the same events however the stream is cut into chunks', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => {
        expect(parse(...cutAt(FEED, cuts))).toEqual(FEED_EVENTS);
      }),
      propertyRuns(500),
    );
  });

  it('takes a CRLF split across two chunks as one line end, not an empty line that ends the event', () => {
    expect(parse('event: journal\r', '\ndata: {"a":1}\r', '\n', 'data: {"b":2}\r', '\n\r', '\n')).toEqual([
      { event: 'journal', data: '{"a":1}\n{"b":2}', id: undefined },
    ]);
  });

  it('dispatches nothing for an event without data, or an unfinished one; `message` when it has no name', () => {
    expect(parse('event: sessions\n\n', 'id: 7\n\n', 'data: x\n\n', 'data: cut')).toEqual([
      { event: 'message', data: 'x', id: '7' },
    ]);
  });

  it('reads fields as the spec does: one space after the colon, a field alone, unknown fields and retry ignored', () => {
    expect(parse('data:  two spaces\nretry: 10\nfoo: bar\ndata\nevent:x\n\n')).toEqual([
      { event: 'x', data: ' two spaces\n', id: undefined },
    ]);
  });

  it('ignores an id holding a NUL', () => {
    expect(parse('id: 1\ndata: a\n\nid: 2\0\ndata: b\n\n').map((e) => e.id)).toEqual(['1', '1']);
  });
});
