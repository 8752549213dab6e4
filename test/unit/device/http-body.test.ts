/**
 * closeAfterBody on stand-ins for the request and the response: the answer goes out at
 * once, its end (and so the close) waits for the rest of the body, within bounds.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeAfterBody } from '../../../src/device/http-body';

const LIMITS = { maxBytes: 1000, maxMs: 5000 };

/** A request whose body is still coming: the test emits its 'data', 'end' and 'close'. */
function requestStub(contentLength?: number): IncomingMessage & EventEmitter {
  const req = Object.assign(new EventEmitter(), {
    headers: contentLength === undefined ? {} : { 'content-length': String(contentLength) },
    complete: false,
    destroyed: false,
    resumed: 0,
    resume() {
      req.resumed++;
      return req;
    },
  });
  return req as unknown as IncomingMessage & EventEmitter;
}

/** A response that records what is written and whether (and with which callback) it ended. */
function responseStub(): ServerResponse & { written: string[]; ended: number; headers: Record<string, string> } {
  const res = {
    written: [] as string[],
    ended: 0,
    headers: {} as Record<string, string>,
    setHeader(name: string, value: string) {
      res.headers[name.toLowerCase()] = value;
      return res;
    },
    write(chunk: string | Buffer) {
      res.written.push(chunk.toString());
      return true;
    },
    end(chunk?: unknown) {
      if (typeof chunk === 'string') res.written.push(chunk);
      if (typeof chunk === 'function') (chunk as () => void)();
      res.ended++;
      return res;
    },
  };
  return res as unknown as ServerResponse & typeof res;
}

afterEach(() => {
  jest.useRealTimers();
});

describe('closeAfterBody', () => {
  it('writes the answer at once and ends it when the rest of the body has come', () => {
    const req = requestStub(800);
    const res = responseStub();
    closeAfterBody(req, res, LIMITS);
    expect(res.headers.connection).toBe('close');
    res.end('{"error":2107}');
    expect(res.written).toEqual(['{"error":2107}']);
    expect(res.ended).toBe(0);
    req.emit('data', Buffer.alloc(500));
    req.emit('data', Buffer.alloc(300));
    expect(res.ended).toBe(0);
    req.emit('end');
    expect(res.ended).toBe(1);
  });

  it('ends at once when the body ends before the answer is written', () => {
    const req = requestStub();
    const res = responseStub();
    closeAfterBody(req, res, LIMITS);
    req.emit('end');
    res.end('answer');
    expect(res).toMatchObject({ written: ['answer'], ended: 1 });
  });

  it('ends past maxBytes of body read', () => {
    const req = requestStub();
    const res = responseStub();
    closeAfterBody(req, res, LIMITS);
    res.end('answer');
    req.emit('data', Buffer.alloc(1000));
    expect(res.ended).toBe(0);
    req.emit('data', Buffer.alloc(1));
    expect(res.ended).toBe(1);
  });

  it('ends after maxMs when the rest of the body does not come', () => {
    jest.useFakeTimers();
    const req = requestStub(900);
    const res = responseStub();
    closeAfterBody(req, res, LIMITS);
    res.end('answer');
    jest.advanceTimersByTime(4999);
    expect(res.ended).toBe(0);
    jest.advanceTimersByTime(1);
    expect(res.ended).toBe(1);
  });

  it('ends when the client goes away, and clears its timer', () => {
    jest.useFakeTimers();
    const req = requestStub(900);
    const res = responseStub();
    closeAfterBody(req, res, LIMITS);
    res.end('answer');
    req.emit('close');
    expect(res.ended).toBe(1);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('holds nothing for a body declared larger than maxBytes, nor for one already read', () => {
    const large = responseStub();
    closeAfterBody(requestStub(1001), large, LIMITS);
    large.end('answer');
    expect(large.ended).toBe(1);

    const done = requestStub(10);
    Object.assign(done, { complete: true });
    const res = responseStub();
    closeAfterBody(done, res, LIMITS);
    res.end('answer');
    expect(res).toMatchObject({ ended: 1, headers: { connection: 'close' } });
  });
});
