import {
  findingsOf,
  IO_PORT,
  JournalBuilder,
  onlyFinding,
  REMOTE,
  ruleIds,
  STREAM_PATH,
  TOKEN_PATH,
  USER,
} from './journal-builder';

describe('token-expired', () => {
  it('names the handshake, the token fetch in evidence and the age of the token', () => {
    const b = new JournalBuilder();
    const fetch = b.at(0).tokenFetch();
    const refused = b.at(20_000).authRefused({ code: 'TOKEN_EXPIRED', scheme: 'token' });
    const f = onlyFinding(b.grade(), 'token-expired');
    expect(f.severity).toBe('error');
    expect(f.device).toBe('DEV1');
    expect(f.client).toEqual({ remote: REMOTE, users: [USER] });
    expect(f.message).toBe('1 handshake used an expired session token, 20.0 s after the token was fetched');
    expect(f.evidence).toEqual([fetch, refused]);
    expect(f.moreEvidence).toBe(0);
    expect(f.fix).toMatch(/right before each WebSocket connect/);
  });

  it('takes the last successful fetch before the refusal, not a failed one or another client', () => {
    const b = new JournalBuilder();
    b.at(0).tokenFetch();
    const last = b.at(3000).tokenFetch();
    b.at(4000).tokenFetch({ status: 401 });
    b.at(5000).tokenFetch({ remote: '10.0.0.9' });
    const refused = b.at(19_000).authRefused({ code: 'TOKEN_EXPIRED', scheme: 'token' });
    const f = onlyFinding(b.grade(), 'token-expired');
    expect(f.message).toBe('1 handshake used an expired session token, 16.0 s after the token was fetched');
    expect(f.evidence).toEqual([last, refused]);
  });

  it('reports the oldest token of several refusals, one finding per client', () => {
    const b = new JournalBuilder();
    b.at(0).tokenFetch();
    b.at(16_000).authRefused({ code: 'TOKEN_EXPIRED', scheme: 'token' });
    b.at(17_000).tokenFetch();
    b.at(45_000).authRefused({ code: 'TOKEN_EXPIRED', scheme: 'token' });
    b.at(46_000).authRefused({ code: 'TOKEN_EXPIRED', scheme: 'token', remote: '10.0.0.9' });
    const found = findingsOf(b.grade(), 'token-expired');
    expect(found.map((f) => [f.client.remote, f.message])).toEqual([
      [REMOTE, '2 handshakes used an expired session token, 28.0 s after the token was fetched'],
      ['10.0.0.9', '1 handshake used an expired session token'],
    ]);
    expect(ruleIds(b.grade())).toEqual(['token-expired', 'token-expired']);
  });

  it('says no age when the device has no token path in its facts', () => {
    const b = new JournalBuilder();
    b.at(0).tokenFetch();
    b.at(20_000).authRefused({ code: 'TOKEN_EXPIRED', scheme: 'token' });
    const report = b.grade(b.now, { devices: [] });
    expect(onlyFinding(report, 'token-expired').message).toBe('1 handshake used an expired session token');
  });

  // An earlier refusal whose fetch the journal no longer holds must not shift the pairing.
  it('pairs each refusal with its own fetch when an earlier refusal has none', () => {
    const b = new JournalBuilder();
    b.at(0).authRefused({ code: 'TOKEN_EXPIRED', scheme: 'token' });
    b.at(1000).tokenFetch();
    b.at(21_000).authRefused({ code: 'TOKEN_EXPIRED', scheme: 'token' });
    const f = onlyFinding(b.grade(), 'token-expired');
    expect(f.message).toBe('2 handshakes used an expired session token, 20.0 s after the token was fetched');
  });
  it('lists a token fetch once in the evidence when two refusals share it', () => {
    const b = new JournalBuilder();
    const fetch = b.at(0).tokenFetch();
    const first = b.at(16_000).authRefused({ code: 'TOKEN_EXPIRED', scheme: 'token' });
    const second = b.at(17_000).authRefused({ code: 'TOKEN_EXPIRED', scheme: 'token' });
    const f = onlyFinding(b.grade(), 'token-expired');
    expect(f.message).toBe('2 handshakes used an expired session token, 17.0 s after the token was fetched');
    expect(f.evidence).toEqual([fetch, first, second]);
  });
});

describe('token-reused', () => {
  it('finds handshakes with a token that had opened a stream already', () => {
    const b = new JournalBuilder();
    b.at(0).tokenFetch();
    b.at(100).wsOpen('s1');
    b.at(200).configure('s1', ['tns1:Device//.']);
    b.at(5000).deviceClose('s1');
    const first = b.at(7000).authRefused({ code: 'TOKEN_REUSED', scheme: 'token' });
    const second = b.at(11_000).authRefused({ code: 'TOKEN_REUSED', scheme: 'token' });
    const f = onlyFinding(b.grade(b.time(30_000)), 'token-reused');
    expect(f.severity).toBe('error');
    expect(f.message).toBe('2 handshakes used a session token that had opened a stream already');
    expect(f.evidence).toEqual([first, second]);
  });

  it('finds nothing without TOKEN_REUSED refusals', () => {
    const b = new JournalBuilder();
    b.at(0).authRefused({ code: 'TOKEN_UNKNOWN', scheme: 'token' });
    expect(findingsOf(b.grade(), 'token-reused')).toEqual([]);
  });
});

describe('token evidence linked by the token number', () => {
  it('gives a reused token its fetch and its first use, however many tokens came in between', () => {
    const b = new JournalBuilder();
    const fetch = b.at(0).tokenFetch({ token: 1 });
    const use = b.at(10).wsOpen('s1', { token: 1 });
    b.at(20).tokenFetch({ token: 2 });
    b.at(30).wsOpen('s2', { token: 2 });
    const refused = b.at(40).authRefused({ code: 'TOKEN_REUSED', scheme: 'token', token: 1 });
    const f = onlyFinding(b.grade(), 'token-reused');
    expect(f.message).toBe('1 handshake used a session token that had opened a stream already (first: session s1)');
    expect(f.evidence).toEqual([fetch, use, refused]);
  });

  it('ages an expired token from its own fetch, not the last one before', () => {
    const b = new JournalBuilder();
    const fetch = b.at(0).tokenFetch({ token: 1 });
    b.at(16_000).tokenFetch({ token: 2 });
    const refused = b.at(20_000).authRefused({ code: 'TOKEN_EXPIRED', scheme: 'token', token: 1 });
    const f = onlyFinding(b.grade(), 'token-expired');
    expect(f.message).toBe('1 handshake used an expired session token, 20.0 s after the token was fetched');
    expect(f.evidence).toEqual([fetch, refused]);
  });
});

describe('auth-failed', () => {
  it('groups refusals per client and code, naming the user and the reason', () => {
    const b = new JournalBuilder();
    const w1 = b.at(0).authRefused({ code: 'WRONG_PASSWORD', path: '/axis-cgi/param.cgi', reason: 'wrong password' });
    const w2 = b
      .at(3000)
      .authRefused({ code: 'WRONG_PASSWORD', path: '/axis-cgi/param.cgi', reason: 'wrong password' });
    const u = b.at(6000).authRefused({ code: 'UNKNOWN_USER', user: 'nobody', reason: 'no such user' });
    const other = b.at(9000).authRefused({
      code: 'WRONG_PASSWORD',
      remote: '10.0.0.9',
      user: 'admin',
      reason: 'wrong password',
    });
    const found = findingsOf(b.grade(b.time(15_000)), 'auth-failed');
    expect(found.map((f) => [f.client.remote, f.severity, f.message, f.evidence])).toEqual([
      [REMOTE, 'error', '2 requests as "operator" refused with WRONG_PASSWORD: wrong password', [w1, w2]],
      [REMOTE, 'error', '1 request as "nobody" refused with UNKNOWN_USER: no such user', [u]],
      ['10.0.0.9', 'error', '1 request as "admin" refused with WRONG_PASSWORD: wrong password', [other]],
    ]);
    expect(found[0].client.users).toEqual(['nobody', USER]);
    expect(found[2].client.users).toEqual(['admin']);
  });

  it('leaves the user out of the message when the refusal named none', () => {
    const b = new JournalBuilder();
    b.authRefused({ code: 'SCHEME_NOT_ACCEPTED', scheme: 'basic', user: undefined, reason: 'Basic is off' });
    expect(onlyFinding(b.grade(b.time(5000)), 'auth-failed').message).toBe(
      '1 request refused with SCHEME_NOT_ACCEPTED: Basic is off',
    );
  });

  it('does not count the normal refusals or those of the token rules', () => {
    const b = new JournalBuilder();
    b.at(0).authRefused({ code: 'NO_CREDENTIALS', path: '/axis-cgi/param.cgi' });
    b.at(5).http();
    b.at(10_000).authRefused({ code: 'STALE_NONCE', path: '/axis-cgi/param.cgi', stale: true });
    b.at(10_005).http();
    b.at(20_000).authRefused({ code: 'REJECTING', path: '/axis-cgi/param.cgi' });
    const report = b.grade(b.time(60_000));
    expect(findingsOf(report, 'auth-failed')).toEqual([]);
    expect(ruleIds(report)).toEqual([]);
  });
});

describe('auth-failed and auth-recovered: a refusal whose next try got past the credentials', () => {
  const FLAGS = '/axis-cgi/featureflag.cgi';

  it("takes an HTTP library's re-send with the new challenge that worked as recovered (info), not an error", () => {
    // After a reboot (or in a new emulator process) the kept nonce is unknown: refused once,
    // answered with the new challenge at once.
    const b = new JournalBuilder();
    const refused = b.at(0).authRefused({ code: 'BAD_NONCE', method: 'POST', path: FLAGS });
    b.at(1).http({ method: 'POST', path: FLAGS, status: 401 });
    b.at(4).http({ method: 'POST', path: FLAGS });
    const report = b.grade(b.time(60_000));
    expect(findingsOf(report, 'auth-failed')).toEqual([]);
    const f = onlyFinding(report, 'auth-recovered');
    expect([f.severity, f.message, f.evidence]).toEqual([
      'info',
      '1 request refused with BAD_NONCE was tried again and got past the credentials within 5.00 s',
      [refused],
    ]);
  });

  it('counts a next try met by a normal refusal (REJECTING while logins are refused) as recovered', () => {
    const b = new JournalBuilder();
    b.at(0).authRefused({ code: 'BAD_NONCE', path: TOKEN_PATH });
    b.at(3).authRefused({ code: 'REJECTING', path: TOKEN_PATH });
    expect(ruleIds(b.grade(b.time(60_000)))).toEqual(['auth-recovered']);
  });

  it('takes a session opened by the next handshake as the stream refusal recovered', () => {
    const b = new JournalBuilder();
    b.at(0).authRefused({ code: 'TOKEN_UNKNOWN', scheme: 'token', path: `${STREAM_PATH}?wssession=x` });
    b.at(2000).tokenFetch();
    b.at(2010).wsOpen('s1');
    b.at(2020).configure('s1', [IO_PORT]);
    expect(ruleIds(b.grade(b.time(60_000)))).toEqual(['auth-recovered']);
  });

  it('finds a refusal whose next try was refused for its credentials too, or came after the window', () => {
    const again = new JournalBuilder();
    const first = again.at(0).authRefused({ code: 'BAD_NONCE', method: 'POST', path: FLAGS });
    const second = again.at(3).authRefused({ code: 'WRONG_PASSWORD', method: 'POST', path: FLAGS });
    const found = findingsOf(again.grade(again.time(60_000)), 'auth-failed');
    expect(found.map((f) => f.evidence)).toEqual([[first], [second]]);

    const late = new JournalBuilder();
    late.at(0).authRefused({ code: 'BAD_NONCE', method: 'POST', path: FLAGS });
    late.at(6000).http({ method: 'POST', path: FLAGS });
    expect(ruleIds(late.grade(late.time(60_000)))).toEqual(['auth-failed']);
    const longer = new JournalBuilder();
    longer.at(0).authRefused({ code: 'BAD_NONCE', method: 'POST', path: FLAGS });
    longer.at(6000).http({ method: 'POST', path: FLAGS });
    expect(ruleIds(longer.grade(longer.time(60_000), { thresholds: { recoverWithinMs: 7000 } }))).toEqual([
      'auth-recovered',
    ]);
  });

  it('does not judge a refusal while its window is open and nothing came after it', () => {
    const b = new JournalBuilder();
    b.at(0).authRefused({ code: 'WRONG_PASSWORD', method: 'POST', path: FLAGS });
    expect(ruleIds(b.grade(b.time(4999)))).toEqual([]);
    expect(ruleIds(b.grade(b.time(5000)))).toEqual(['auth-failed']);
    // A client that has stopped tries nothing again: judged at once.
    expect(ruleIds(b.grade(b.time(10), { clientStopped: true }))).toEqual(['auth-failed']);
  });

  it('does not take a success of another path, method or client as the recovery', () => {
    const b = new JournalBuilder();
    b.at(0).authRefused({ code: 'WRONG_PASSWORD', method: 'POST', path: FLAGS });
    b.at(2).http({ method: 'GET', path: FLAGS });
    b.at(3).http({ method: 'POST', path: '/axis-cgi/param.cgi' });
    b.at(4).http({ method: 'POST', path: FLAGS, remote: '10.0.0.9' });
    b.at(5).http({ method: 'POST', path: FLAGS, status: 401 });
    expect(ruleIds(b.grade(b.time(60_000)))).toEqual(['auth-failed']);
  });
});

describe('stale-not-retried', () => {
  const stale = (b: JournalBuilder, path = '/axis-cgi/param.cgi') =>
    b.authRefused({ code: 'STALE_NONCE', path, stale: true, reason: 'nonce expired' });

  it('finds nothing when the request was repeated with success within 5 s', () => {
    const b = new JournalBuilder();
    b.at(0);
    stale(b);
    b.at(4900).http({ path: '/axis-cgi/param.cgi?action=list' });
    expect(ruleIds(b.grade(b.time(60_000)))).toEqual([]);
  });

  it('finds a stale 401 that was not repeated', () => {
    const b = new JournalBuilder();
    b.at(0);
    const refused = stale(b);
    b.at(1000).http({ path: '/axis-cgi/other.cgi' }); // another path does not count
    b.at(2000).http({ path: '/axis-cgi/param.cgi', status: 401 }); // nor a failure
    b.at(5100).http({ path: '/axis-cgi/param.cgi' }); // nor a success too late
    expect(ruleIds(b.grade(b.time(100)))).toEqual([]);
    expect(ruleIds(b.grade(b.time(100), { clientStopped: true }))).toEqual(['stale-not-retried']);
    const f = onlyFinding(b.grade(b.time(60_000)), 'stale-not-retried');
    expect(f.severity).toBe('error');
    expect(f.message).toBe('1 request answered 401 with stale=true was not repeated within 5.00 s');
    expect(f.evidence).toEqual([refused]);
  });

  it('takes a new session as the retry of a stale handshake on the stream path', () => {
    const b = new JournalBuilder();
    b.at(0);
    stale(b, STREAM_PATH);
    b.at(50).wsOpen('s1');
    b.at(100).configure('s1', ['tns1:Device//.']);
    expect(ruleIds(b.grade(b.time(60_000)))).toEqual([]);

    const lost = new JournalBuilder();
    lost.at(0);
    stale(lost, STREAM_PATH);
    expect(ruleIds(lost.grade(lost.time(60_000)))).toEqual(['stale-not-retried']);
  });

  it('does not judge while the retry window is not over', () => {
    const b = new JournalBuilder();
    b.at(0);
    stale(b);
    expect(ruleIds(b.grade(b.time(4999)))).toEqual([]);
    expect(ruleIds(b.grade(b.time(5000)))).toEqual(['stale-not-retried']);
  });

  it('ignores a STALE_NONCE refusal that did not say stale=true', () => {
    const b = new JournalBuilder();
    b.at(0).authRefused({ code: 'STALE_NONCE', path: '/axis-cgi/param.cgi', stale: false });
    expect(ruleIds(b.grade(b.time(60_000)))).toEqual([]);
  });
});

describe('nonce-not-reused', () => {
  const PARAM = '/axis-cgi/param.cgi';
  /** A digest request with its first leg `legMs` before it. */
  const paidRequest = (b: JournalBuilder, at: number, path = PARAM, legMs = 5) => {
    const leg = b.at(at - legMs).authRefused({ code: 'NO_CREDENTIALS', path });
    const request = b.at(at).http({ path });
    return [leg, request];
  };

  it('warns when every digest request came right after a 401 for the same method and path', () => {
    const b = new JournalBuilder();
    const evidence = [
      ...paidRequest(b, 1000),
      ...paidRequest(b, 5000, '/axis-cgi/basicdeviceinfo.cgi'),
      ...paidRequest(b, 9000, '/axis-cgi/param.cgi', 1999),
    ];
    const f = onlyFinding(b.grade(), 'nonce-not-reused');
    expect(f.severity).toBe('warning');
    expect(f.message).toBe('3 of 3 digest requests were each preceded by a 401 round trip');
    expect(f.evidence).toEqual(evidence);
  });

  it('needs at least 3 digest requests', () => {
    const b = new JournalBuilder();
    paidRequest(b, 1000);
    paidRequest(b, 5000);
    expect(ruleIds(b.grade())).toEqual([]);
  });

  it.each([
    ['another path', { path: '/axis-cgi/other.cgi' }, 5],
    ['another method', { method: 'POST' }, 5],
    ['more than 2 s before', {}, 2001],
  ])('does not take a 401 for %s as the first leg', (_what, leg, legMs) => {
    const b = new JournalBuilder();
    paidRequest(b, 1000);
    paidRequest(b, 5000);
    b.at(10_000 - legMs).authRefused({ code: 'NO_CREDENTIALS', path: PARAM, ...leg });
    b.at(10_000).http({ path: PARAM });
    expect(ruleIds(b.grade())).toEqual([]);
  });

  it('does take a 401 exactly 2 s before as the first leg (the same case, made to fail)', () => {
    const b = new JournalBuilder();
    paidRequest(b, 1000);
    paidRequest(b, 5000);
    paidRequest(b, 10_000, PARAM, 2000);
    expect(ruleIds(b.grade())).toEqual(['nonce-not-reused']);
  });

  it('finds nothing for a client that reuses the nonce', () => {
    const b = new JournalBuilder();
    paidRequest(b, 1000);
    for (let at = 4000; at <= 20_000; at += 4000) b.at(at).http({ path: PARAM });
    expect(ruleIds(b.grade())).toEqual([]);
  });

  it('finds nothing for 4 of 6 requests paid (below 80 %)', () => {
    const b = new JournalBuilder();
    for (const at of [1000, 5000, 9000, 13_000]) paidRequest(b, at);
    b.at(17_000).http();
    b.at(21_000).http();
    expect(ruleIds(b.grade())).toEqual([]);
  });

  // One 401 is the first leg of one request only: quick requests reusing its nonce paid nothing.
  it('does not count one 401 as the first leg of several requests (quick nonce reuse)', () => {
    const b = new JournalBuilder();
    b.at(0).authRefused({ code: 'NO_CREDENTIALS', path: PARAM });
    b.at(5).http({ path: PARAM });
    b.at(500).http({ path: PARAM });
    b.at(1000).http({ path: PARAM });
    expect(ruleIds(b.grade())).toEqual([]);
  });

  it('ignores requests that were not digest', () => {
    const b = new JournalBuilder();
    for (const at of [1000, 5000, 9000]) {
      b.at(at - 5).authRefused({ code: 'NO_CREDENTIALS', path: PARAM });
      b.at(at).http({ path: PARAM, auth: 'basic' });
    }
    expect(ruleIds(b.grade())).toEqual([]);
  });
});

describe('the token path and stream path', () => {
  it('are those of the facts', () => {
    expect(new JournalBuilder().facts()).toEqual({
      serial: 'DEV1',
      streamPath: STREAM_PATH,
      tokenPath: TOKEN_PATH,
      topics: ['tns1:Device/tnsvendor:IO/Port', 'tns1:VideoSource/MotionAlarm'],
      topicAliases: { onvif: 'tns1' },
    });
  });
});
