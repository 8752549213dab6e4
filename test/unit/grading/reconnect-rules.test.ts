import {
  findingsOf,
  IO_PORT,
  JournalBuilder,
  MOTION,
  onlyFinding,
  REMOTE,
  ruleIds,
  STREAM_PATH,
  TOKEN_PATH,
  USER,
} from './journal-builder';

/** A session opened and configured at once (one filter, `topic`). */
function session(b: JournalBuilder, id: string, at: number, topic = IO_PORT) {
  const open = b.at(at).wsOpen(id);
  b.advance(50).configure(id, [topic]);
  return open;
}

describe('reconnect-no-backoff', () => {
  it('finds 4 refused attempts 100 ms apart', () => {
    const b = new JournalBuilder();
    const attempts = [0, 100, 200, 300].map((at) => b.at(at).wsRefused());
    const f = onlyFinding(b.grade(), 'reconnect-no-backoff');
    expect(f.severity).toBe('error');
    expect(f.client).toEqual({ remote: REMOTE, users: [] });
    expect(f.message).toBe(
      '4 refused connection attempts in 300 ms, a median 100 ms apart (intervals 100 ms, 100 ms, 100 ms); ' +
        'expected at least 1.00 s, growing',
    );
    expect(f.evidence).toEqual(attempts);
  });

  it('splits runs by journal order: a session opened in the same millisecond as the next attempt ends the run', () => {
    const b = new JournalBuilder();
    [0, 100, 200].forEach((at) => b.at(at).wsRefused());
    b.at(300).wsOpen('s1');
    b.at(300).wsRefused();
    expect(ruleIds(b.grade())).toEqual([]);
  });

  it('does not judge 3 attempts, however fast', () => {
    const b = new JournalBuilder();
    [0, 100, 200].forEach((at) => b.at(at).wsRefused());
    expect(ruleIds(b.grade())).toEqual([]);
  });

  it('finds nothing for attempts 2 s, 4 s and 8 s apart', () => {
    const b = new JournalBuilder();
    [0, 2000, 6000, 14_000].forEach((at) => b.at(at).wsRefused());
    expect(ruleIds(b.grade())).toEqual([]);
  });

  it('judges the median interval: one long wait in a fast run does not excuse it', () => {
    const b = new JournalBuilder();
    [0, 100, 200, 10_200, 10_300].forEach((at) => b.at(at).wsRefused());
    expect(onlyFinding(b.grade(), 'reconnect-no-backoff').message).toBe(
      '5 refused connection attempts in 10.3 s, a median 100 ms apart (intervals 100 ms, 100 ms, 10.0 s, 100 ms); ' +
        'expected at least 1.00 s, growing',
    );
  });

  /** A digest attempt during a reboot: the leg without credentials, then the digest leg 5 ms later. */
  const twoLegs = (b: JournalBuilder, at: number, path?: string) => {
    const first = b.at(at).authRefused({ code: 'REJECTING', scheme: undefined, user: undefined, path });
    b.at(at + 5).authRefused({ code: 'REJECTING', scheme: 'digest', path });
    return first;
  };

  it("counts a digest client's two legs as one attempt", () => {
    const three = new JournalBuilder();
    [0, 100, 200].forEach((at) => twoLegs(three, at));
    expect(ruleIds(three.grade())).toEqual([]);

    const four = new JournalBuilder();
    const firsts = [0, 100, 200, 300].map((at) => twoLegs(four, at));
    const f = onlyFinding(four.grade(), 'reconnect-no-backoff');
    // Apart: from the refusal that ended one attempt (its digest leg) to the next attempt.
    expect(f.message).toMatch(/^4 refused connection attempts in 300 ms, a median 95 ms apart /);
    expect(f.evidence).toEqual(firsts);
    expect(f.client.users).toEqual([USER]);
  });

  it("measures the client's wait from the refusal that ended an attempt: a device slow to refuse hides no loop", () => {
    // Each attempt's re-send is refused 90 ms after its first leg; the client tries again 10 ms later.
    const b = new JournalBuilder();
    [0, 100, 200, 300, 400].forEach((at) => {
      b.at(at).authRefused({ code: 'BAD_NONCE', path: TOKEN_PATH });
      b.at(at + 90).authRefused({ code: 'REJECTING', path: TOKEN_PATH });
    });
    const f = findingsOf(b.grade(b.time(60_000), { thresholds: { minRetryIntervalMs: 100 } }), 'reconnect-no-backoff');
    expect(f.map((x) => x.message)).toEqual([
      '5 refused connection attempts in 400 ms, a median 10 ms apart (intervals 10 ms, 10 ms, 10 ms, 10 ms); expected at least 100 ms, growing',
    ]);
  });

  it("counts a refusal and the HTTP library's re-send with the new challenge as one attempt, both with credentials", () => {
    // After a reboot: the cached nonce is refused (BAD_NONCE), the library answers the new
    // challenge at once and is refused again while logins are refused (REJECTING).
    const resend = (b: JournalBuilder, at: number) => {
      b.at(at).authRefused({ code: 'BAD_NONCE', path: TOKEN_PATH });
      b.at(at + 4).authRefused({ code: 'REJECTING', path: TOKEN_PATH });
    };
    const backingOff = new JournalBuilder();
    [0, 2000, 6000, 14_000].forEach((at) => resend(backingOff, at));
    expect(findingsOf(backingOff.grade(), 'reconnect-no-backoff')).toEqual([]);

    const tight = new JournalBuilder();
    [0, 100, 200, 300].forEach((at) => resend(tight, at));
    expect(findingsOf(tight.grade(), 'reconnect-no-backoff')[0]?.message).toMatch(
      /^4 refused connection attempts in 300 ms/,
    );
  });

  it('takes one re-send per refusal: a third refusal right after is another attempt', () => {
    const b = new JournalBuilder();
    [0, 300, 600, 900].forEach((at) => {
      b.at(at).authRefused({ code: 'REJECTING', path: TOKEN_PATH });
      b.at(at + 2).authRefused({ code: 'REJECTING', path: TOKEN_PATH });
    });
    expect(onlyFinding(b.grade(), 'reconnect-no-backoff').message).toMatch(/^4 refused connection attempts in 900 ms/);
    const chained = new JournalBuilder();
    [0, 2, 4, 6, 8, 10, 12, 14].forEach((at) => chained.at(at).authRefused({ code: 'REJECTING', path: TOKEN_PATH }));
    expect(onlyFinding(chained.grade(), 'reconnect-no-backoff').message).toMatch(/^4 refused connection attempts/);
  });

  it('does not merge refusals of another path or method, nor a re-send without credentials', () => {
    const b = new JournalBuilder();
    [0, 100, 200, 300].forEach((at) => {
      b.at(at).authRefused({ code: 'REJECTING', path: TOKEN_PATH });
      b.at(at + 2).authRefused({ code: 'REJECTING', path: STREAM_PATH });
    });
    expect(onlyFinding(b.grade(), 'reconnect-no-backoff').message).toMatch(/^8 refused connection attempts/);
  });

  it('counts refused token fetches as attempts', () => {
    const b = new JournalBuilder();
    [0, 100, 200, 300].forEach((at) => twoLegs(b, at, TOKEN_PATH));
    expect(ruleIds(b.grade())).toEqual(['reconnect-no-backoff']);
  });

  it('does not count NO_CREDENTIALS refusals, nor refusals of other paths', () => {
    const b = new JournalBuilder();
    [0, 100, 200, 300].forEach((at) => b.at(at).authRefused({ code: 'NO_CREDENTIALS' }));
    [1000, 1100, 1200, 1300].forEach((at) => b.at(at).authRefused({ code: 'REJECTING', path: '/axis-cgi/param.cgi' }));
    expect(ruleIds(b.grade())).toEqual([]);
  });

  it('splits runs where a session opened in between', () => {
    const split = new JournalBuilder();
    [0, 100].forEach((at) => split.at(at).wsRefused());
    session(split, 's1', 150);
    split.at(180).wsClose('s1');
    [200, 300].forEach((at) => split.at(at).wsRefused());
    expect(ruleIds(split.grade())).toEqual([]);

    const whole = new JournalBuilder();
    [0, 100, 200, 300].forEach((at) => whole.at(at).wsRefused());
    expect(ruleIds(whole.grade())).toEqual(['reconnect-no-backoff']);
  });

  it('judges each client on its own', () => {
    const b = new JournalBuilder();
    [0, 100, 200, 300].forEach((at) => b.at(at).wsRefused({ remote: at % 200 === 0 ? REMOTE : '10.0.0.9' }));
    expect(ruleIds(b.grade())).toEqual([]);
  });
});

describe('no-reconnect and reconnect-slow', () => {
  /** A configured session from 0 that the device closes at 10 s. */
  const dropped = (reason = 'network reset') => {
    const b = new JournalBuilder();
    session(b, 's1', 0);
    const close = b.at(10_000).deviceClose('s1', { code: 1001, reason });
    return { b, close };
  };

  it('finds a client that did not come back within 60 s of the device closing its session', () => {
    const { b, close } = dropped();
    const f = onlyFinding(b.grade(b.time(71_000)), 'no-reconnect');
    expect(f.severity).toBe('error');
    expect(f.client).toEqual({ remote: REMOTE, users: [USER] });
    expect(f.message).toBe(
      'did not come back within 61.0 s after the device ended its session (close code 1001, "network reset")',
    );
    expect(f.evidence).toEqual([close]);
  });

  it('does not judge while the window is not over', () => {
    const { b } = dropped();
    expect(ruleIds(b.grade(b.time(69_999)))).toEqual([]);
    expect(ruleIds(b.grade(b.time(70_000)))).toEqual(['no-reconnect']);
  });

  it.each(['reset by the emulator', 'device shutting down'])('ignores closes by the harness (%s)', (reason) => {
    const { b } = dropped(reason);
    expect(ruleIds(b.grade(b.time(500_000)))).toEqual([]);
  });

  it('ignores closes by the client', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0);
    b.at(10_000).wsClose('s1', { by: 'client', code: 1000 });
    expect(ruleIds(b.grade(b.time(500_000)))).toEqual([]);
  });

  it('ignores a close while the client kept another session open', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0, IO_PORT);
    session(b, 's2', 1000, MOTION);
    b.at(10_000).deviceClose('s1', { reason: 'evicted' });
    expect(ruleIds(b.grade(b.time(500_000)))).toEqual([]);
  });

  it('takes the sessions closed at once as one episode', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0, IO_PORT);
    session(b, 's2', 1000, MOTION);
    const c1 = b.at(10_000).deviceClose('s1');
    const c2 = b.at(10_500).deviceClose('s2');
    const f = onlyFinding(b.grade(b.time(80_000)), 'no-reconnect');
    expect(f.message).toBe(
      'did not come back within 70.0 s after the device ended its 2 sessions (close code 1001, "network reset")',
    );
    expect(f.evidence).toEqual([c1, c2]);
  });

  it('finds nothing when the client came back within 60 s', () => {
    const { b } = dropped();
    session(b, 's2', 70_000);
    expect(ruleIds(b.grade(b.time(500_000)))).toEqual([]);
  });

  it('warns when the client came back after 90 s', () => {
    const { b, close } = dropped();
    const back = session(b, 's2', 100_000);
    const f = onlyFinding(b.grade(b.time(500_000)), 'reconnect-slow');
    expect(f.severity).toBe('warning');
    expect(f.message).toBe(
      'came back 90.0 s after the device ended its session (close code 1001, "network reset"); expected within 60.0 s',
    );
    expect(f.evidence).toEqual([close, back]);
  });

  describe('after a reboot', () => {
    /** A session closed by the device as a reboot starts at 10 s; the reboot ends at 40 s. */
    const rebooted = (ended = true) => {
      const b = new JournalBuilder();
      session(b, 's1', 0);
      b.at(10_000).fault('reboot', 'start', { durationMs: 30_000 });
      const close = b.at(10_000).deviceClose('s1', { code: 1012, reason: 'device restarting' });
      if (ended) b.at(40_000).fault('reboot', 'end');
      return { b, close };
    };

    it('counts the window from the end of the reboot', () => {
      const { b } = rebooted();
      session(b, 's2', 95_000); // 85 s after the close, 55 s after the reboot ended
      expect(ruleIds(b.grade(b.time(500_000)))).toEqual([]);
    });

    it('warns when the client came back more than 60 s after the reboot ended', () => {
      const { b } = rebooted();
      session(b, 's2', 101_000);
      expect(onlyFinding(b.grade(b.time(500_000)), 'reconnect-slow').message).toBe(
        'came back 61.0 s after the device ended its session (close code 1012, "device restarting"); expected within 60.0 s',
      );
    });

    it('finds no-reconnect only once 60 s have passed since the reboot ended', () => {
      const { b, close } = rebooted();
      expect(ruleIds(b.grade(b.time(99_999)))).toEqual([]);
      const f = onlyFinding(b.grade(b.time(101_000)), 'no-reconnect');
      expect(f.message).toBe(
        'did not come back within 61.0 s after the device ended its session (close code 1012, "device restarting")',
      );
      expect(f.evidence).toEqual([close]);
    });

    it('does not judge while the reboot is still under way', () => {
      const { b } = rebooted(false);
      expect(ruleIds(b.grade(b.time(500_000)))).toEqual([]);
    });

    it('ignores a reboot that was over before the close', () => {
      const b = new JournalBuilder();
      b.at(0).fault('reboot', 'start');
      b.at(5000).fault('reboot', 'end');
      session(b, 's1', 6000);
      b.at(10_000).deviceClose('s1');
      expect(onlyFinding(b.grade(b.time(71_000)), 'no-reconnect').message).toMatch(
        /^did not come back within 61\.0 s /,
      );
    });
  });
});

describe('stall-undetected', () => {
  /** A configured session from 0; a stall from 10 s to `off` (ms, or still on). */
  const stalled = (params: Record<string, unknown>, off?: number) => {
    const b = new JournalBuilder();
    const open = session(b, 's1', 0);
    const on = b.at(10_000).fault('stall', 'on', params);
    if (off !== undefined) b.at(off).fault('stall', 'off');
    return { b, open, on };
  };

  it('warns when the client kept its session through a stall of 40 s with unanswered pings', () => {
    const { b, open, on } = stalled({ pings: false }, 50_000);
    const f = onlyFinding(b.grade(b.time(60_000)), 'stall-undetected');
    expect(f.severity).toBe('warning');
    expect(f.client).toEqual({ remote: REMOTE, users: [USER] });
    expect(f.message).toBe(
      'kept its session open for 40.0 s while the device answered no ping; expected a reconnect within 30.0 s',
    );
    expect(f.evidence).toEqual([open, on]);
  });

  it('judges a stall still on at the time of the report, once 30 s have passed', () => {
    const { b } = stalled({ pings: false });
    expect(ruleIds(b.grade(b.time(39_999)))).toEqual([]);
    expect(onlyFinding(b.grade(b.time(45_000)), 'stall-undetected').message).toMatch(
      /^kept its session open for 35\.0 s /,
    );
  });

  it('finds nothing for a stall shorter than 30 s', () => {
    const { b } = stalled({ pings: false }, 39_000);
    expect(ruleIds(b.grade(b.time(60_000)))).toEqual([]);
  });

  it('finds nothing when the client closed and opened a new session within 30 s', () => {
    const { b } = stalled({ pings: false }, 50_000);
    b.at(25_000).wsClose('s1', { by: 'client', code: 1000 });
    session(b, 's2', 26_000);
    expect(ruleIds(b.grade(b.time(60_000)))).toEqual([]);
  });

  it('takes a new session within 30 s as the reaction', () => {
    const { b } = stalled({ pings: false }, 50_000);
    session(b, 's2', 39_000);
    b.at(45_000).wsClose('s1', { by: 'client', code: 1000 });
    expect(findingsOf(b.grade(b.time(60_000)), 'stall-undetected')).toEqual([]);
  });

  it('does not take a reaction after the 30 s', () => {
    const { b } = stalled({ pings: false }, 50_000);
    b.at(41_000).wsClose('s1', { by: 'client', code: 1000 });
    session(b, 's2', 41_500);
    expect(ruleIds(b.grade(b.time(60_000)))).toEqual(['stall-undetected']);
  });

  it('finds nothing when the device kept answering pings', () => {
    const { b } = stalled({ pings: true }, 50_000);
    expect(ruleIds(b.grade(b.time(60_000)))).toEqual([]);
  });

  it('finds nothing for a session opened after the stall began', () => {
    const b = new JournalBuilder();
    b.at(0).fault('stall', 'on', { pings: false });
    session(b, 's1', 1000);
    b.at(50_000).fault('stall', 'off');
    expect(ruleIds(b.grade(b.time(60_000)))).toEqual([]);
  });
});

describe('configure-missing', () => {
  it('finds a session left unconfigured for 10 s', () => {
    const b = new JournalBuilder();
    const open = b.at(0).wsOpen('s1');
    expect(ruleIds(b.grade(b.time(9999)))).toEqual([]);
    const f = onlyFinding(b.grade(b.time(10_000)), 'configure-missing');
    expect(f.severity).toBe('error');
    expect(f.message).toBe('a session was not configured within 10.0 s of opening');
    expect(f.evidence).toEqual([open]);
  });

  it('says "after a reconnect" when the session before was configured', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0);
    b.at(20_000).deviceClose('s1');
    const open = b.at(22_000).wsOpen('s2');
    const f = onlyFinding(b.grade(b.time(40_000)), 'configure-missing');
    expect(f.message).toBe(
      'a session was not configured within 10.0 s of opening after a reconnect (the session before was configured)',
    );
    expect(f.evidence).toEqual([open]);
  });

  it('groups the sessions of one client, with their closes in evidence', () => {
    const b = new JournalBuilder();
    const o1 = b.at(0).wsOpen('s1');
    const c1 = b.at(15_000).wsClose('s1');
    const o2 = b.at(16_000).wsOpen('s2');
    const f = onlyFinding(b.grade(b.time(60_000)), 'configure-missing');
    expect(f.message).toBe('2 sessions were not configured within 10.0 s of opening');
    expect(f.evidence).toEqual([o1, c1, o2]);
  });

  it('finds nothing for a session configured in time', () => {
    const b = new JournalBuilder();
    b.at(0).wsOpen('s1');
    b.at(10_000).configure('s1', [IO_PORT]);
    expect(ruleIds(b.grade(b.time(60_000)))).toEqual([]);
  });

  it('does not take a late configure', () => {
    const b = new JournalBuilder();
    b.at(0).wsOpen('s1');
    b.at(10_001).configure('s1', [IO_PORT]);
    expect(ruleIds(b.grade(b.time(60_000)))).toEqual(['configure-missing']);
  });

  it('leaves a session whose configure was refused in time to invalid-filter (refusal-rules.test.ts: message-refused)', () => {
    const b = new JournalBuilder();
    b.at(0).wsOpen('s1');
    b.at(1000).configure('s1', ['tns1:Device/'], { error: { code: 2104, message: 'bad filter' } });
    b.at(10_001).configure('s1', [IO_PORT]);
    expect(ruleIds(b.grade(b.time(60_000)))).toEqual(['invalid-filter']);
  });

  it('finds nothing for a session closed before 10 s', () => {
    const b = new JournalBuilder();
    b.at(0).wsOpen('s1');
    b.at(5000).wsClose('s1');
    expect(ruleIds(b.grade(b.time(60_000)))).toEqual([]);
  });
});

describe('a stall with pings off: what the device read late is not charged to the client', () => {
  /**
   * A client that noticed the stall: it closed its session (the device reads the close only
   * when the stall ends), opened a new one and configured it (read then too).
   */
  function stalledReconnect(stallMs: number) {
    const b = new JournalBuilder();
    session(b, 's1', 0);
    b.at(1000).fault('stall', 'on', { pings: false });
    b.at(4000).wsOpen('s2');
    b.at(1000 + stallMs).fault('stall', 'off');
    b.advance(2).wsClose('s1');
    b.advance(2).configure('s2', [IO_PORT]);
    return b;
  }

  it('finds nothing for a client that noticed a 40 s stall and came back', () => {
    const b = stalledReconnect(40_000);
    expect(ruleIds(b.grade(b.time(120_000), { thresholds: { maxSessionsPerClient: 1 } }))).toEqual([]);
  });

  it('does not judge the configure of a session held by a stall still on', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0);
    b.at(1000).fault('stall', 'on', { pings: false });
    b.at(4000).wsOpen('s2');
    expect(findingsOf(b.grade(b.time(120_000)), 'configure-missing')).toEqual([]);
  });

  it('still finds a session the client did not configure once the device read again', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0);
    b.at(1000).fault('stall', 'on', { pings: false });
    b.at(4000).wsOpen('s2');
    b.at(20_000).fault('stall', 'off');
    b.advance(2).wsClose('s1');
    expect(ruleIds(b.grade(b.time(29_000)))).toEqual([]);
    expect(ruleIds(b.grade(b.time(31_000)))).toEqual(['configure-missing']);
  });

  it('still counts a session the client kept after the stall as open', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0);
    b.at(1000).fault('stall', 'on', { pings: false });
    b.at(4000).wsOpen('s2');
    b.at(20_000).fault('stall', 'off');
    b.advance(2).configure('s2', [IO_PORT]);
    b.at(30_000).wsClose('s1');
    const found = findingsOf(
      b.grade(b.time(60_000), { thresholds: { maxSessionsPerClient: 1 } }),
      'concurrent-sessions',
    );
    expect(found.map((f) => f.message)).toEqual(['held 2 sessions open at once (at most 1 expected)']);
  });

  it('judges the device reading normally again with pings on', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0);
    b.at(1000).fault('stall', 'on', { pings: true });
    b.at(4000).wsOpen('s2');
    b.at(20_000).fault('stall', 'off');
    b.advance(2).wsClose('s1');
    b.advance(2).configure('s2', [IO_PORT]);
    expect(ruleIds(b.grade(b.time(60_000), { thresholds: { maxSessionsPerClient: 1 } }))).toEqual([
      'configure-missing',
      'concurrent-sessions',
      'duplicate-subscription',
    ]);
  });
});
