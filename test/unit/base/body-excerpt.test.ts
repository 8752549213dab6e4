import { bodyExcerpt, MAX_EXCERPT_CHARS, REDACTED, redactSecrets } from '../../../src/base/body-excerpt';

const SECRET = 'hunter2-Secret';

describe('redactSecrets', () => {
  it.each([
    ['a JSON string', `{"params":{"password":"${SECRET}","x":1}}`, `{"params":{"password":"${REDACTED}","x":1}}`],
    ['Python repr quotes', `{'password': '${SECRET}', 'user': 'root'}`, `{'password': '${REDACTED}', 'user': 'root'}`],
    ['an unquoted name', `{passwd: "${SECRET}"}`, `{passwd: "${REDACTED}"}`],
    ['a form body', `user=root&password=${SECRET}&x=1`, `user=root&password=${REDACTED}&x=1`],
    ['a number and null', '{"apiKey": 12345, "token": null}', `{"apiKey": ${REDACTED}, "token": ${REDACTED}}`],
    ['a session token', `{"wssession":"${SECRET}"}`, `{"wssession":"${REDACTED}"}`],
    ['a list', `{"keys": ["a","${SECRET}"], "n": 1}`, `{"keys": ${REDACTED}, "n": 1}`],
    ['escaped quotes', `{"secret":"a\\"${SECRET}\\"c","y":2}`, `{"secret":"${REDACTED}","y":2}`],
    ['a string cut off', `{"password":"${SECRET}`, `{"password":"${REDACTED}"`],
    ['an Authorization header', 'Authorization: Basic cm9vdDpwYXNz', `Authorization: ${REDACTED}`],
    ['Basic credentials', '"Basic cm9vdDpwYXNz"', `"Basic ${REDACTED}"`],
    ['Digest credentials', 'x Digest username="root", response="abc"', `x Digest ${REDACTED}`],
  ])('censors %s', (_what, text, redacted) => {
    expect(redactSecrets(text)).toBe(redacted);
  });

  it('keeps names used as values and the fields of an ordinary request', () => {
    const text = '{"apiVersion":"1.0","method":"token","params":{"eventFilterList":[{"topicFilter":"tns1:Device"}]}}';
    expect(redactSecrets(text)).toBe(text);
  });
});

describe('bodyExcerpt', () => {
  it('keeps the size and a short body whole', () => {
    expect(bodyExcerpt(Buffer.from('{"a":1}'))).toEqual({ bytes: 7, text: '{"a":1}' });
  });

  it(`cuts a long body at ${MAX_EXCERPT_CHARS} characters and says so`, () => {
    const excerpt = bodyExcerpt(Buffer.from('x'.repeat(100_000)));
    expect(excerpt.bytes).toBe(100_000);
    expect(excerpt.text).toBe(`${'x'.repeat(MAX_EXCERPT_CHARS)}…`);
  });

  it('censors a secret whose value the cut would split, and one past the cut never shows', () => {
    const before = `{"pad":"${'p'.repeat(MAX_EXCERPT_CHARS - 22)}","password":"${SECRET}"}`;
    expect(bodyExcerpt(Buffer.from(before)).text).not.toContain('hunter2');
    const after = `${'x'.repeat(5000)}"password":"${SECRET}"`;
    expect(bodyExcerpt(Buffer.from(after)).text).not.toContain('hunter2');
  });

  it('shows control bytes of a binary message as U+FFFD', () => {
    expect(bodyExcerpt(Buffer.from([0, 1, 0x7b, 0x7d, 0x0a])).text).toBe('\ufffd\ufffd{}\n');
  });
});
