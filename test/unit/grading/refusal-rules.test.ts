/** rpc-error, message-refused and refused-repeated over synthetic journals, and what configure-missing leaves to them. */
import { findingsOf, IO_PORT, JournalBuilder, onlyFinding, REMOTE, ruleIds, USER } from './journal-builder';

const LATER = 600_000;
const FLAGS = '/axis-cgi/featureflag.cgi';
const NOT_BOOLEAN = { code: 2104, message: 'Invalid parameter: flag value must be true or false: alarm' };
const SET_STRING = '{"apiVersion":"1.0","method":"set","params":{"flagValues":{"alarm":"true"}}}';

describe('rpc-error', () => {
  it('finds a CGI answer with a JSON-RPC error, with the method, the code and what was sent', () => {
    const b = new JournalBuilder();
    const refused = b.at(0).http({ method: 'POST', path: FLAGS, call: 'set', error: NOT_BOOLEAN, body: SET_STRING });
    const f = onlyFinding(b.grade(b.time(LATER)), 'rpc-error');
    expect(f.severity).toBe('error');
    expect(f.client).toEqual({ remote: REMOTE, users: [USER] });
    expect(f.message).toBe(
      `1 request to ${FLAGS} set answered 2104 ${NOT_BOOLEAN.message}; sent (${SET_STRING.length} bytes): ${SET_STRING}`,
    );
    expect(f.evidence).toEqual([refused]);
  });

  it('makes one finding per method and code, and cuts what was sent in its line', () => {
    const b = new JournalBuilder();
    const long = `{"pad":"${'x'.repeat(300)}"}`;
    b.at(0).http({ method: 'POST', path: FLAGS, call: 'set', error: NOT_BOOLEAN });
    b.at(10).http({ method: 'POST', path: FLAGS, call: 'set', error: NOT_BOOLEAN });
    b.at(20).http({ method: 'POST', path: FLAGS, error: { code: 2101, message: 'Invalid JSON: x' }, body: long });
    const findings = findingsOf(b.grade(b.time(LATER)), 'rpc-error');
    expect(findings.map((f) => f.message.split('; sent')[0])).toEqual([
      `2 requests to ${FLAGS} set answered 2104 ${NOT_BOOLEAN.message}`,
      `1 request to ${FLAGS} answered 2101 Invalid JSON: x`,
    ]);
    // 120 characters of what was sent: `{"pad":"` and 112 x.
    expect(findings[1].message).toMatch(/: \{"pad":"x{112}…$/);
  });

  it("leaves 2100 to unsupported-api-version, and the device's own 1100 to nobody", () => {
    const b = new JournalBuilder();
    b.at(0).http({ path: FLAGS, error: { code: 2100, message: 'version 9.0 is not supported' } });
    b.at(10).http({ path: FLAGS, error: { code: 1100, message: 'Internal error' } });
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual(['unsupported-api-version']);
  });

  it('finds nothing for answers without an error', () => {
    const b = new JournalBuilder();
    for (let i = 0; i < 5; i++) b.at(i * 5000).http({ method: 'POST', path: FLAGS, call: 'listAll' });
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual([]);
  });
});

describe('message-refused', () => {
  it('finds refused stream messages, one finding per code, with what was sent', () => {
    const b = new JournalBuilder();
    b.at(0).wsOpen('s1');
    const big = { bytes: 112_640, text: `{"apiVersion":"1.0","method":"events:configure"${'…'}` };
    const tooLarge = b.at(100).messageRefused('s1', { code: 2107, message: 'Request too large', sent: big });
    const binary = b.at(200).messageRefused('s1', { binary: true, message: 'Invalid JSON: binary frames' });
    b.at(300).configure('s1', [IO_PORT]);
    const findings = findingsOf(b.grade(b.time(LATER)), 'message-refused');
    expect(findings.map((f) => [f.severity, f.message, f.evidence])).toEqual([
      ['error', `1 message refused with 2107: Request too large; sent (112640 bytes): ${big.text}`, [tooLarge]],
      ['error', '1 message refused with 2101: Invalid JSON: binary frames; sent (14 bytes): {"apiVersion":', [binary]],
    ]);
    expect(findings[0].client).toEqual({ remote: REMOTE, users: [USER] });
  });

  it('names a session the device closed for a frame it could not read', () => {
    const b = new JournalBuilder();
    b.at(0).wsOpen('s1');
    b.at(100).messageRefused('s1', { code: 1009, message: 'Max payload size exceeded', closed: true, sent: null });
    b.at(100).wsClose('s1', { code: 1009 });
    const f = onlyFinding(b.grade(b.time(LATER)), 'message-refused');
    expect(f.message).toBe(
      '1 session closed with 1009 for a frame the device could not read: Max payload size exceeded',
    );
  });
});

describe('configure-missing and a refused configure attempt', () => {
  it('leaves a session whose configure was refused as too large to message-refused (not configure-missing)', () => {
    const b = new JournalBuilder();
    b.at(0).wsOpen('s1');
    b.at(100).messageRefused('s1', { code: 2107, message: 'Request too large' });
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual(['message-refused']);
  });

  it('still finds a session whose only refusal came after the window', () => {
    const b = new JournalBuilder();
    b.at(0).wsOpen('s1');
    b.at(11_000).messageRefused('s1');
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual(['configure-missing', 'message-refused']);
  });
});

describe('refused-repeated', () => {
  it('finds a refused request sent again unchanged more than maxRefusedRepeats (2) times', () => {
    const b = new JournalBuilder();
    const sent = [0, 1, 2, 3].map((i) =>
      b.at(i * 500).http({ method: 'POST', path: FLAGS, call: 'set', error: NOT_BOOLEAN, body: SET_STRING }),
    );
    const report = b.grade(b.time(LATER));
    expect(ruleIds(report)).toEqual(['rpc-error', 'refused-repeated']);
    const f = findingsOf(report, 'refused-repeated')[0];
    expect(f.severity).toBe('warning');
    expect(f.message).toBe(
      `POST ${FLAGS} set refused with 2104 was sent again 3 times within 1.50 s (at most 2 expected); ` +
        `sent (${SET_STRING.length} bytes): ${SET_STRING}`,
    );
    expect(f.evidence).toEqual(sent);
  });

  it('finds nothing for a retry or two, or for different bodies', () => {
    const b = new JournalBuilder();
    // A retry and a second: at most 2.
    for (let i = 0; i < 3; i++) b.at(i * 500).http({ path: FLAGS, error: NOT_BOOLEAN, body: SET_STRING });
    // Four different bodies.
    for (let i = 0; i < 4; i++) b.at(5000 + i * 500).http({ path: FLAGS, error: NOT_BOOLEAN, body: `{"n":${i}}` });
    // Four answered with different errors.
    for (let i = 0; i < 4; i++) b.at(9000 + i * 500).http({ path: FLAGS, error: { code: 2200 + i, message: 'x' } });
    expect(ruleIds(b.grade(b.time(LATER)))).not.toContain('refused-repeated');
  });

  it('finds an invalid configure re-sent on every reconnect, across sessions', () => {
    const b = new JournalBuilder();
    const error = { code: 2104, message: 'bad filter' };
    for (let i = 0; i < 4; i++) {
      b.at(i * 3000).wsOpen(`s${i}`);
      b.advance(10).configure(`s${i}`, ['tns1:Device//x'], { error });
      b.advance(10).wsClose(`s${i}`);
    }
    const f = onlyFindingOf(b, 'refused-repeated');
    expect(f.message).toBe(
      'events:configure with [{"topicFilter":"tns1:Device//x"}] refused with 2104 was sent again 3 times within 9.00 s (at most 2 expected)',
    );
    expect(f.evidence.map((e) => e.kind)).toEqual(['configure', 'configure', 'configure', 'configure']);
  });

  it('finds a refused stream message re-sent, and takes the threshold', () => {
    const b = new JournalBuilder();
    b.at(0).wsOpen('s1');
    for (let i = 0; i < 3; i++) b.at(100 + i).messageRefused('s1');
    b.at(200).configure('s1', [IO_PORT]);
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual(['message-refused']);
    const report = b.grade(b.time(LATER), { thresholds: { maxRefusedRepeats: 1 } });
    expect(findingsOf(report, 'refused-repeated')[0].message).toBe(
      'a text message refused with 2101 was sent again 2 times within 2 ms (at most 1 expected); sent (14 bytes): {"apiVersion":',
    );
  });
});

function onlyFindingOf(b: JournalBuilder, rule: 'refused-repeated') {
  const findings = findingsOf(b.grade(b.time(LATER)), rule);
  expect(findings).toHaveLength(1);
  return findings[0];
}
