/**
 * Conditional requests judged as OpenStack Swift judges them (swob's
 * `_get_conditional_response_status`, the proxy's and object server's `If-None-Match`
 * on PUT). Cases marked "stock Swift 2.30.1" were measured on one (/tmp/probe.sh and
 * follow-up requests); the "stricter" cases are the documented difference: `If-Match`
 * and `If-Unmodified-Since` are judged on PUT, POST and DELETE too.
 */
import {
  type ConditionHeaders,
  type ConditionTarget,
  type ConditionVerdict,
  httpDateSeconds,
  judgeConditions,
  tagList,
} from '../../../src/protocol/http-conditions';

const ETAG = '644be06dfc54061fd1e67f5ebbabcd58';
/** Last modified 2026-11-24 01:22:03.887 UTC: a fraction of a second past the whole second. */
const MODIFIED = Date.UTC(2026, 10, 24, 1, 22, 3, 887);
const OBJECT: ConditionTarget = { etag: ETAG, lastModified: MODIFIED };

const OLD = 'Tue, 24 Nov 2020 01:16:08 GMT';
const FUTURE = 'Tue, 24 Nov 2030 01:16:08 GMT';

const PROCEED: ConditionVerdict = { kind: 'proceed' };
const notModified = (header: string): ConditionVerdict => ({ kind: 'not-modified', status: 304, header });
const failed = (header: string): ConditionVerdict => ({ kind: 'failed', status: 412, header });
const ONLY_STAR: ConditionVerdict = { kind: 'bad', status: 400, message: 'If-None-Match only supports *' };

type Case = [string, string, ConditionHeaders, ConditionTarget | undefined, ConditionVerdict];

describe('judgeConditions: reads, as stock Swift 2.30.1 answered them', () => {
  it.each<Case>([
    ['If-Match: the ETag (200)', 'GET', { 'if-match': ETAG }, OBJECT, PROCEED],
    ['If-Match: the quoted ETag (200)', 'GET', { 'if-match': `"${ETAG}"` }, OBJECT, PROCEED],
    ['If-Match: another tag (412)', 'GET', { 'if-match': 'bad' }, OBJECT, failed('If-Match')],
    ['If-Match: * (200)', 'GET', { 'if-match': '*' }, OBJECT, PROCEED],
    ['If-Match: * on a missing object (412)', 'GET', { 'if-match': '*' }, undefined, failed('If-Match')],
    ['If-Match: a tag on a missing object (404)', 'GET', { 'if-match': 'bad' }, undefined, PROCEED],
    ['If-Match: a list holding the ETag (200)', 'GET', { 'if-match': `x, ${ETAG}` }, OBJECT, PROCEED],
    ['If-Match: the weak ETag (412)', 'GET', { 'if-match': `W/"${ETAG}"` }, OBJECT, failed('If-Match')],
    ['If-None-Match: the ETag (304)', 'GET', { 'if-none-match': ETAG }, OBJECT, notModified('If-None-Match')],
    ['If-None-Match: * (304)', 'GET', { 'if-none-match': '*' }, OBJECT, notModified('If-None-Match')],
    ['If-None-Match: another tag (200)', 'GET', { 'if-none-match': 'other' }, OBJECT, PROCEED],
    [
      'If-None-Match: a quoted list holding the ETag (304)',
      'GET',
      { 'if-none-match': `"x", "${ETAG}"` },
      OBJECT,
      notModified('If-None-Match'),
    ],
    ['If-None-Match: the weak ETag (200)', 'GET', { 'if-none-match': `W/"${ETAG}"` }, OBJECT, PROCEED],
    ['If-None-Match: * on a missing object (404)', 'GET', { 'if-none-match': '*' }, undefined, PROCEED],
    ['If-Modified-Since: long ago (200)', 'GET', { 'if-modified-since': OLD }, OBJECT, PROCEED],
    [
      'If-Modified-Since: later (304)',
      'GET',
      { 'if-modified-since': FUTURE },
      OBJECT,
      notModified('If-Modified-Since'),
    ],
    ['If-Modified-Since: garbage (200)', 'GET', { 'if-modified-since': 'garbage' }, OBJECT, PROCEED],
    [
      'If-Unmodified-Since: long ago (412)',
      'GET',
      { 'if-unmodified-since': OLD },
      OBJECT,
      failed('If-Unmodified-Since'),
    ],
    ['If-Unmodified-Since: later (200)', 'GET', { 'if-unmodified-since': FUTURE }, OBJECT, PROCEED],
    ['If-Unmodified-Since: long ago, missing object (404)', 'GET', { 'if-unmodified-since': OLD }, undefined, PROCEED],
    [
      // Each header is judged on its own, as Swift does (RFC 9110 would skip If-Modified-Since here).
      'If-None-Match: another tag and If-Modified-Since: later (304)',
      'GET',
      { 'if-none-match': 'other', 'if-modified-since': FUTURE },
      OBJECT,
      notModified('If-Modified-Since'),
    ],
    ['HEAD If-None-Match: the ETag (304)', 'HEAD', { 'if-none-match': ETAG }, OBJECT, notModified('If-None-Match')],
    ['HEAD If-Match: another tag (412)', 'HEAD', { 'if-match': 'bad' }, OBJECT, failed('If-Match')],
  ])('%s', (_name, method, headers, target, verdict) => {
    expect(judgeConditions(method, headers, target)).toEqual(verdict);
  });

  it('no condition header: proceed, object or not', () => {
    expect(judgeConditions('GET', {}, OBJECT)).toEqual(PROCEED);
    expect(judgeConditions('HEAD', {}, undefined)).toEqual(PROCEED);
  });

  it('If-None-Match is judged before If-Match (304 wins over 412)', () => {
    expect(judgeConditions('GET', { 'if-none-match': ETAG, 'if-match': 'bad' }, OBJECT)).toEqual(
      notModified('If-None-Match'),
    );
  });

  it('If-Match is judged before the dates (412 wins over 304)', () => {
    expect(judgeConditions('GET', { 'if-match': 'bad', 'if-modified-since': FUTURE }, OBJECT)).toEqual(
      failed('If-Match'),
    );
  });

  it('an empty If-None-Match / If-Match list is no condition on a read', () => {
    expect(judgeConditions('GET', { 'if-none-match': ' , ' }, OBJECT)).toEqual(PROCEED);
  });
});

describe('judgeConditions: PUT If-None-Match, as stock Swift 2.30.1 answered it', () => {
  it.each<Case>([
    ['If-None-Match: * on an existing object (412)', 'PUT', { 'if-none-match': '*' }, OBJECT, failed('If-None-Match')],
    ['If-None-Match: * on a new object (201)', 'PUT', { 'if-none-match': '*' }, undefined, PROCEED],
    ['If-None-Match: a tag (400)', 'PUT', { 'if-none-match': ETAG }, OBJECT, ONLY_STAR],
    ['If-None-Match: a tag on a new object (400)', 'PUT', { 'if-none-match': 'x' }, undefined, ONLY_STAR],
    ['If-None-Match: a quoted tag (400)', 'PUT', { 'if-none-match': `"${ETAG}"` }, OBJECT, ONLY_STAR],
  ])('%s', (_name, method, headers, target, verdict) => {
    expect(judgeConditions(method, headers, target)).toEqual(verdict);
  });

  it('If-Modified-Since and If-None-Match on other writes are not judged', () => {
    expect(judgeConditions('PUT', { 'if-modified-since': FUTURE }, OBJECT)).toEqual(PROCEED);
    expect(judgeConditions('POST', { 'if-none-match': '*' }, OBJECT)).toEqual(PROCEED);
    expect(judgeConditions('DELETE', { 'if-none-match': ETAG }, OBJECT)).toEqual(PROCEED);
  });
});

describe('judgeConditions: stricter than Swift on writes (documented)', () => {
  it.each(['PUT', 'POST', 'DELETE'])('%s with a failing If-Match is 412', (method) => {
    expect(judgeConditions(method, { 'if-match': 'bad' }, OBJECT)).toEqual(failed('If-Match'));
  });

  it.each(['PUT', 'POST', 'DELETE'])('%s with a holding If-Match proceeds', (method) => {
    expect(judgeConditions(method, { 'if-match': `"${ETAG}"` }, OBJECT)).toEqual(PROCEED);
    expect(judgeConditions(method, { 'if-match': '*' }, OBJECT)).toEqual(PROCEED);
  });

  it.each([ETAG, '*'])('PUT with If-Match: %s on a missing object is 412', (tag) => {
    expect(judgeConditions('PUT', { 'if-match': tag }, undefined)).toEqual(failed('If-Match'));
  });

  it.each(['PUT', 'POST', 'DELETE'])(
    '%s modified since If-Unmodified-Since is 412, not modified proceeds',
    (method) => {
      expect(judgeConditions(method, { 'if-unmodified-since': OLD }, OBJECT)).toEqual(failed('If-Unmodified-Since'));
      expect(judgeConditions(method, { 'if-unmodified-since': FUTURE }, OBJECT)).toEqual(PROCEED);
    },
  );
});

describe('judgeConditions: dates', () => {
  // Swift's Last-Modified is the timestamp rounded up (X-Timestamp 1795483322.88756 -> 01:22:03).
  const second = new Date(Math.ceil(MODIFIED / 1000) * 1000).toUTCString();
  const secondBefore = new Date(Math.ceil(MODIFIED / 1000) * 1000 - 1000).toUTCString();

  it('compares whole seconds: the Last-Modified second itself is not modified since', () => {
    expect(second).toBe('Tue, 24 Nov 2026 01:22:04 GMT');
    expect(judgeConditions('GET', { 'if-modified-since': second }, OBJECT)).toEqual(notModified('If-Modified-Since'));
    expect(judgeConditions('GET', { 'if-unmodified-since': second }, OBJECT)).toEqual(PROCEED);
  });

  it('one second before Last-Modified: modified since', () => {
    expect(judgeConditions('GET', { 'if-modified-since': secondBefore }, OBJECT)).toEqual(PROCEED);
    expect(judgeConditions('GET', { 'if-unmodified-since': secondBefore }, OBJECT)).toEqual(
      failed('If-Unmodified-Since'),
    );
  });

  it.each(['garbage', '', 'not a date at all', 'Tue, 99 Foo 2020 99:99:99 GMT'])(
    'ignores the unparsable date %j',
    (date) => {
      for (const method of ['GET', 'HEAD', 'PUT', 'POST', 'DELETE']) {
        expect(judgeConditions(method, { 'if-modified-since': date }, OBJECT)).toEqual(PROCEED);
        expect(judgeConditions(method, { 'if-unmodified-since': date }, OBJECT)).toEqual(PROCEED);
      }
    },
  );

  // Date.parse would take these ("1" is 2001-01-01, "2030" its New Year); stock Swift 2.30.1
  // (email.utils.parsedate) ignores them: If-Unmodified-Since: 1 and If-Modified-Since: 2030 were 200 there.
  it.each(['1', '2030', 'x 5', 'Nov 24 2000'])('ignores %j, which is no HTTP date', (date) => {
    expect(judgeConditions('GET', { 'if-unmodified-since': date }, OBJECT)).toEqual(PROCEED);
    expect(judgeConditions('GET', { 'if-modified-since': date }, OBJECT)).toEqual(PROCEED);
  });

  it('httpDateSeconds reads the three HTTP date forms, in whole seconds', () => {
    const seconds = Date.UTC(2020, 10, 24, 1, 16, 8) / 1000;
    expect(httpDateSeconds('Tue, 24 Nov 2020 01:16:08 GMT', MODIFIED)).toBe(seconds);
    expect(httpDateSeconds('Tuesday, 24-Nov-20 01:16:08 GMT', MODIFIED)).toBe(seconds);
    expect(httpDateSeconds('Tue Nov 24 01:16:08 2020', MODIFIED)).toBe(seconds);
    expect(httpDateSeconds(undefined, MODIFIED)).toBeUndefined();
    expect(httpDateSeconds('', MODIFIED)).toBeUndefined();
    expect(httpDateSeconds('garbage', MODIFIED)).toBeUndefined();
    expect(httpDateSeconds('Tue, 31 Feb 2020 01:16:08 GMT', MODIFIED)).toBeUndefined();
  });
});

describe('tagList', () => {
  it('splits on commas, trims, unquotes, keeps W/ and drops empty items', () => {
    expect(tagList(` a, "b" ,W/"c", , "*"`)).toEqual(new Set(['a', 'b', 'W/"c"', '*']));
  });

  it('is undefined when absent, an empty set when sent with nothing listed', () => {
    expect(tagList(undefined)).toBeUndefined();
    expect(tagList('')).toEqual(new Set());
    expect(tagList(' , ,')).toEqual(new Set());
  });

  it('an empty If-Match matches nothing (stock Swift 2.30.1: 412); an empty If-None-Match on PUT is 400', () => {
    expect(judgeConditions('GET', { 'if-match': '' }, OBJECT)).toEqual(failed('If-Match'));
    expect(judgeConditions('PUT', { 'if-none-match': '' }, undefined)).toMatchObject({ kind: 'bad', status: 400 });
  });

  it('If-None-Match on PUT with * among other tags is taken as * (swob: "*" in the set)', () => {
    expect(judgeConditions('PUT', { 'if-none-match': '*, abc' }, OBJECT)).toEqual(failed('If-None-Match'));
    expect(judgeConditions('PUT', { 'if-none-match': '*, abc' }, undefined)).toEqual(PROCEED);
  });

  it('leaves a lone quote as it is (swob normalize_etag)', () => {
    expect(tagList('"')).toEqual(new Set(['"']));
  });
});
