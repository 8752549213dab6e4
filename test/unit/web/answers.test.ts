/**
 * How the dashboard reads the device's answers (web/dashboard/http.ts, rpc.ts), above all the
 * bad ones: an answer that is not JSON, a 204, a JSON-RPC or control API error, one that is
 * neither data nor error, a 5xx with an HTML page; what the page says of each, long bodies
 * clipped. `fetch` is the test's own: it answers what the test gives it.
 */
import { excerpt, httpProblem, jsonOf, problemOf } from '../../../web/dashboard/http';
import { callCgi } from '../../../web/dashboard/rpc';
import { PAGE_ORIGIN, withPageLocation } from './page-location';

withPageLocation();

/** A proxy's error page: several lines, longer than a message shows. */
const HTML_PAGE = [
  '<html>',
  '<head><title>502 Bad Gateway</title></head>',
  `<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center>${' '.repeat(40)}</body>`,
  '</html>',
  '',
].join('\n');

/** An answer of `status` with `body`. */
function answer(body: string | null, status = 200, statusText = ''): Response {
  return new Response(body, { status, statusText });
}

describe('excerpt (the start of a text, for a message)', () => {
  it('is the text trimmed, whole when short', () => {
    expect(excerpt('  {"status":"closing"}\n')).toBe('{"status":"closing"}');
    expect(excerpt('x'.repeat(100))).toBe('x'.repeat(100));
  });

  it('clips a longer text at `max` characters with an ellipsis', () => {
    expect(excerpt(`${'x'.repeat(100)}y`)).toBe(`${'x'.repeat(100)}…`);
    expect(excerpt('abcdef', 3)).toBe('abc…');
  });

  it('says (empty) of nothing or white space', () => {
    expect(excerpt('')).toBe('(empty)');
    expect(excerpt(' \r\n\t')).toBe('(empty)');
  });
});

describe('jsonOf (the JSON of a successful answer)', () => {
  it('is the parsed body', async () => {
    await expect(jsonOf(answer('{"data":{"flags":[]}}'))).resolves.toEqual({ data: { flags: [] } });
    await expect(jsonOf(answer('null'))).resolves.toBeNull();
  });

  it('is undefined for a 204, whose body it does not read', async () => {
    const res = answer(null, 204);
    await expect(jsonOf(res)).resolves.toBeUndefined();
    expect(res.bodyUsed).toBe(false);
  });

  it('rejects a 200 that is not JSON with its start', async () => {
    await expect(jsonOf(answer('Service is up'))).rejects.toThrow(/^answer is not JSON: Service is up$/);
    await expect(jsonOf(answer(''))).rejects.toThrow(/^answer is not JSON: \(empty\)$/);
    await expect(jsonOf(answer(HTML_PAGE))).rejects.toThrow(
      new Error(`answer is not JSON: ${HTML_PAGE.trim().slice(0, 100)}…`),
    );
  });
});

describe('httpProblem (a failed answer in a line, as the page says it everywhere)', () => {
  it('is the status and the start of the body, without the status text', async () => {
    expect(await httpProblem(answer('{"status":"closing"}', 503, 'Service Unavailable'))).toBe(
      'HTTP 503: {"status":"closing"}',
    );
    expect(await httpProblem(answer('too many sessions\n', 429))).toBe('HTTP 429: too many sessions');
  });

  it('clips a long body, an HTML page too, at 100 characters', async () => {
    expect(await httpProblem(answer(HTML_PAGE, 502, 'Bad Gateway'))).toBe(
      `HTTP 502: ${HTML_PAGE.trim().slice(0, 100)}…`,
    );
    expect(await httpProblem(answer('x'.repeat(300), 500))).toBe(`HTTP 500: ${'x'.repeat(100)}…`);
  });

  it('says (empty) of no body, or one already read', async () => {
    expect(await httpProblem(answer('', 503, 'Service Unavailable'))).toBe('HTTP 503: (empty)');
    const read = answer('gone', 500);
    await read.text();
    expect(await httpProblem(read)).toBe('HTTP 500: (empty)');
  });

  it('is the wording of a control API answer that is no API error', async () => {
    for (const [body, status] of [
      ['{"status":"closing"}', 503],
      [HTML_PAGE, 502],
      ['', 500],
    ] as const)
      expect(await problemOf(answer(body, status))).toBe(await httpProblem(answer(body, status)));
  });
});

describe('problemOf (a failed answer of the control API)', () => {
  it("is the API's error: its code and message, or the message alone", async () => {
    const refusal = '{"error":{"code":"UNAUTHORIZED","message":"bad token"}}';
    expect(await problemOf(answer(refusal, 401))).toBe('UNAUTHORIZED: bad token');
    expect(await problemOf(answer(refusal, 401), false)).toBe('bad token');
  });

  it('is the status and the start of the body when that is no API error', async () => {
    expect(await problemOf(answer('{"status":"closing"}', 503, 'Service Unavailable'))).toBe(
      'HTTP 503: {"status":"closing"}',
    );
    expect(await problemOf(answer('{"error":{"code":7}}', 400))).toBe('HTTP 400: {"error":{"code":7}}');
    expect(await problemOf(answer('null', 500))).toBe('HTTP 500: null');
    expect(await problemOf(answer(HTML_PAGE, 502, 'Bad Gateway'))).toBe(`HTTP 502: ${HTML_PAGE.trim().slice(0, 100)}…`);
    expect(await problemOf(answer('', 503))).toBe('HTTP 503: (empty)');
  });
});

describe('callCgi (a JSON-RPC call of a device CGI)', () => {
  let fetched: jest.SpiedFunction<typeof fetch>;
  /** The device answers the next call with `res`. */
  const answers = (res: Response): void => void fetched.mockResolvedValueOnce(res);

  beforeEach(() => {
    fetched = jest.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('no answer set by the test'));
  });

  afterEach(() => {
    fetched.mockRestore();
  });

  it('posts the method and its params, and resolves with the data', async () => {
    answers(answer('{"apiVersion":"1.0","data":{"flags":[{"name":"a","value":true}]}}'));
    await expect(callCgi('/axis-cgi/featureflag.cgi', 'listAll', { names: ['a'] })).resolves.toEqual({
      flags: [{ name: 'a', value: true }],
    });
    const [path, init] = fetched.mock.calls[0];
    // At the page's origin, not resolved against its address (which may hold a login fetch refuses).
    expect([path, init?.method]).toEqual([`${PAGE_ORIGIN}/axis-cgi/featureflag.cgi`, 'POST']);
    expect(JSON.parse(init?.body as string)).toEqual({
      apiVersion: '1.0',
      context: 'dashboard',
      method: 'listAll',
      params: { names: ['a'] },
    });
  });

  it("rejects with the device's JSON-RPC error", async () => {
    answers(answer('{"apiVersion":"1.0","error":{"code":2105,"message":"Invalid parameter value"}}'));
    await expect(callCgi('/cgi', 'set')).rejects.toThrow(new Error('error 2105: Invalid parameter value'));
  });

  it('rejects an answer with neither data nor error, saying what it was', async () => {
    answers(answer('{"apiVersion":"1.0","context":"dashboard"}'));
    await expect(callCgi('/cgi', 'listAll')).rejects.toThrow(
      new Error('answer has neither data nor error: {"apiVersion":"1.0","context":"dashboard"}'),
    );
    answers(answer('null'));
    await expect(callCgi('/cgi', 'listAll')).rejects.toThrow(new Error('answer has neither data nor error: null'));
    answers(answer(`{"note":"${'x'.repeat(200)}"}`));
    await expect(callCgi('/cgi', 'listAll')).rejects.toThrow(
      new Error(`answer has neither data nor error: {"note":"${'x'.repeat(91)}…`),
    );
  });

  it('rejects a 204 as an answer with neither data nor error', async () => {
    answers(answer(null, 204));
    await expect(callCgi('/cgi', 'listAll')).rejects.toThrow(new Error('answer has neither data nor error: (empty)'));
  });

  it('rejects a 200 that is not JSON with its start', async () => {
    answers(answer('<html>a login page</html>'));
    await expect(callCgi('/cgi', 'listAll')).rejects.toThrow(
      new Error('answer is not JSON: <html>a login page</html>'),
    );
  });

  it('rejects a 5xx with the HTTP problem, not the HTML of its page', async () => {
    answers(answer(HTML_PAGE, 502, 'Bad Gateway'));
    await expect(callCgi('/cgi', 'listAll')).rejects.toThrow(new Error(`HTTP 502: ${HTML_PAGE.trim().slice(0, 100)}…`));
  });
});
