import {
  type FilterSpec,
  IO_PORT,
  JournalBuilder,
  MOTION,
  onlyFinding,
  REMOTE,
  ruleIds,
  TOPICS,
  USER,
} from './journal-builder';

/** A session opened at `at` and configured 50 ms later with `filters`. */
function session(b: JournalBuilder, id: string, at: number, filters: readonly FilterSpec[] = [IO_PORT]) {
  const open = b.at(at).wsOpen(id);
  const configure = b.advance(50).configure(id, filters);
  return { open, configure };
}

const LATER = 600_000;

describe('invalid-filter', () => {
  it('finds a configure the device refused', () => {
    const b = new JournalBuilder();
    b.at(0).wsOpen('s1');
    const refused = b.at(100).configure('s1', ['tns1:Device//x'], {
      error: { code: 2104, message: "topic filter: '//' and '//.' may only end a topic path" },
    });
    b.at(200).configure('s1', [IO_PORT]);
    const f = onlyFinding(b.grade(b.time(LATER)), 'invalid-filter');
    expect(f.severity).toBe('error');
    expect(f.client).toEqual({ remote: REMOTE, users: [USER] });
    expect(f.message).toBe(
      "1 configure request refused; first: 2104 topic filter: '//' and '//.' may only end a topic path",
    );
    expect(f.evidence).toEqual([refused]);
  });

  it('gathers the refusals of every session of a client and names the first', () => {
    const b = new JournalBuilder();
    b.at(0).wsOpen('s1');
    const r1 = b.at(100).configure('s1', ['a b'], { error: { code: 2104, message: 'first' } });
    b.at(200).configure('s1', [IO_PORT]);
    b.at(300).wsClose('s1');
    b.at(400).wsOpen('s2');
    const r2 = b.at(500).configure('s2', ['|'], { error: { code: 2103, message: 'second' } });
    b.at(600).configure('s2', [IO_PORT]);
    const f = onlyFinding(b.grade(b.time(LATER)), 'invalid-filter');
    expect(f.message).toMatch(/^2 configure requests refused; first: 2104 first$/);
    expect(f.evidence).toEqual([r1, r2]);
  });

  it('leaves a refusal for the API version to unsupported-api-version', () => {
    const b = new JournalBuilder();
    b.at(0).wsOpen('s1');
    b.at(100).configure('s1', [IO_PORT], { error: { code: 2100, message: 'version 9.0 is not supported' } });
    b.at(200).configure('s1', [IO_PORT]);
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual(['unsupported-api-version']);
  });
});

describe('unsupported-api-version', () => {
  it('finds CGI answers and configures refused with 2100, per client', () => {
    const b = new JournalBuilder();
    const http = b.at(0).http({
      method: 'POST',
      path: '/axis-cgi/featureflag.cgi',
      error: { code: 2100, message: 'The requested API version is not supported' },
    });
    b.at(1000).wsOpen('s1');
    const configure = b.at(1100).configure('s1', [IO_PORT], {
      error: { code: 2100, message: 'The requested API version is not supported' },
    });
    b.at(1200).configure('s1', [IO_PORT]);
    const f = onlyFinding(b.grade(b.time(LATER)), 'unsupported-api-version');
    expect(f.severity).toBe('error');
    expect(f.client).toEqual({ remote: REMOTE, users: [USER] });
    expect(f.message).toBe(
      '2 requests asked for an unsupported API version (/axis-cgi/featureflag.cgi, events:configure)',
    );
    expect(f.evidence).toEqual([http, configure]);
  });

  it('leaves other JSON-RPC errors to rpc-error', () => {
    const b = new JournalBuilder();
    b.at(0).http({ path: '/axis-cgi/featureflag.cgi', error: { code: 2200, message: 'Flag(s) does not exist' } });
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual(['rpc-error']);
  });
});

describe('slow-consumer', () => {
  it('finds a session the device closed with 1013', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0);
    const close = b.at(10_000).deviceClose('s1', { code: 1013, reason: 'client too slow' });
    session(b, 's2', 12_000);
    const f = onlyFinding(b.grade(b.time(LATER)), 'slow-consumer');
    expect(f.severity).toBe('error');
    expect(f.message).toBe('1 session closed with 1013: the client did not read fast enough');
    expect(f.evidence).toEqual([close]);
  });

  it('ignores 1013 from the client and other closes by the device', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0);
    b.at(10_000).wsClose('s1', { by: 'client', code: 1013 });
    session(b, 's2', 12_000);
    b.at(20_000).deviceClose('s2', { code: 1001 });
    session(b, 's3', 22_000);
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual([]);
  });
});

describe('concurrent-sessions', () => {
  const SIREN = 'tns1:Device/tnsvendor:Siren/State';
  const facts = (b: JournalBuilder) => [b.facts({ topics: [...TOPICS, SIREN] })];

  it('warns about 3 sessions of one client open at once', () => {
    const b = new JournalBuilder();
    const { open: o1 } = session(b, 's1', 0, [IO_PORT]);
    const { open: o2 } = session(b, 's2', 1000, [MOTION]);
    const { open: o3 } = session(b, 's3', 2000, [SIREN]);
    const f = onlyFinding(b.grade(b.time(LATER), { devices: facts(b) }), 'concurrent-sessions');
    expect(f.severity).toBe('warning');
    expect(f.message).toBe('held 3 sessions open at once (at most 2 expected)');
    expect(f.evidence).toEqual([o1, o2, o3]);
  });

  it('allows 2 at once', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0, [IO_PORT]);
    session(b, 's2', 1000, [MOTION]);
    expect(ruleIds(b.grade(b.time(LATER), { devices: facts(b) }))).toEqual([]);
  });

  it('finds nothing for sessions one after the other', () => {
    const b = new JournalBuilder();
    for (const [i, at] of [0, 10_000, 20_000, 30_000].entries()) {
      session(b, `s${i}`, at);
      b.at(at + 5000).wsClose(`s${i}`);
    }
    expect(ruleIds(b.grade(b.time(LATER), { devices: facts(b) }))).toEqual([]);
  });

  it('does not count the sessions of other clients', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0);
    session(b, 's2', 1000, [MOTION]);
    b.at(2000).wsOpen('s3', { remote: '10.0.0.9' });
    b.advance(50).configure('s3', [SIREN]);
    expect(ruleIds(b.grade(b.time(LATER), { devices: facts(b) }))).toEqual([]);
  });
});

describe('filter-matches-nothing', () => {
  it('warns about a filter with a typo', () => {
    const b = new JournalBuilder();
    const { configure } = session(b, 's1', 0, [IO_PORT, 'tns1:VideoSource/MotionAlram']);
    const f = onlyFinding(b.grade(b.time(LATER)), 'filter-matches-nothing');
    expect(f.severity).toBe('warning');
    expect(f.client).toEqual({ remote: REMOTE, users: [USER] });
    expect(f.message).toBe(
      'topic filter "tns1:VideoSource/MotionAlram" matches none of the 2 topics the device publishes',
    );
    expect(f.evidence).toEqual([configure]);
  });

  it('reports a filter once per client, however many sessions sent it', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0, ['tnsaxis:VideoSource/MotionAlarm']);
    b.at(5000).wsClose('s1');
    session(b, 's2', 6000, ['tnsaxis:VideoSource/MotionAlarm']);
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual(['filter-matches-nothing']);
  });

  it('resolves the aliases of the device', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0, ['onvif:VideoSource/MotionAlarm']);
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual([]);
    const noAlias = b.grade(b.time(LATER), { devices: [b.facts({ topicAliases: {} })] });
    expect(ruleIds(noAlias)).toEqual(['filter-matches-nothing']);
  });

  it('counts a topic seen only in a notification as published', () => {
    const LIGHT = 'tns1:Device/tnsvendor:Light/Status';
    const b = new JournalBuilder();
    session(b, 's1', 0, [LIGHT]);
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual(['filter-matches-nothing']);
    b.at(1000).notification('s1', LIGHT);
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual([]);
  });

  it('ignores match-all filters, filters of refused configures and content-only filters', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0, ['', { contentFilter: 'boolean(//SimpleItem[@Name="state"])' }]);
    b.at(1000).configure('s1', ['tns1:Nothing/Here'], { error: { code: 2104, message: 'no' } });
    b.at(2000).configure('s1', ['//.']);
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual(['invalid-filter']);
  });
});

describe('duplicate-subscription', () => {
  it('warns about two filters of one configure selecting the same topic, with the doubled notifications', () => {
    const b = new JournalBuilder();
    const { configure } = session(b, 's1', 0, [MOTION, 'onvif:VideoSource//.']);
    const first = b.at(1000).notification('s1', MOTION);
    const twice = b.at(1000).notification('s1', MOTION, { event: first.event });
    const next = b.at(5000).notification('s1', MOTION);
    const again = b.at(5001).notification('s1', MOTION, { event: next.event });
    const f = onlyFinding(b.grade(b.time(LATER)), 'duplicate-subscription');
    expect(f.severity).toBe('warning');
    expect(f.client).toEqual({ remote: REMOTE, users: [USER] });
    expect(f.message).toBe('1 topic selected twice (tns1:VideoSource/MotionAlarm); 2 notifications arrived twice');
    expect(f.evidence).toEqual([configure, twice, again]);
  });

  it('warns about two overlapping sessions of one client selecting the same topic', () => {
    const b = new JournalBuilder();
    const { configure: c1 } = session(b, 's1', 0, ['tns1:Device//.']);
    const { configure: c2 } = session(b, 's2', 1000, [IO_PORT]);
    const first = b.at(2000).notification('s1', IO_PORT);
    const twice = b.at(2000).notification('s2', IO_PORT, { event: first.event });
    const f = onlyFinding(b.grade(b.time(LATER)), 'duplicate-subscription');
    expect(f.message).toBe('1 topic selected twice (tns1:Device/tnsvendor:IO/Port); 1 notification arrived twice');
    expect(f.evidence).toEqual([c1, c2, twice]);
  });

  it('says nothing of notifications when none arrived twice', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0, [IO_PORT, MOTION, 'tns1:Device//.', 'onvif:VideoSource//.']);
    const f = onlyFinding(b.grade(b.time(LATER)), 'duplicate-subscription');
    expect(f.message).toBe('2 topics selected twice (tns1:Device/tnsvendor:IO/Port, tns1:VideoSource/MotionAlarm)');
  });

  it('finds nothing for one filter per topic in one session', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0, [IO_PORT, MOTION]);
    b.at(1000).notification('s1', IO_PORT);
    b.at(1000).notification('s1', MOTION);
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual([]);
  });

  it('finds nothing for two filters of one topic told apart by content filters', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0, [
      { topicFilter: IO_PORT, contentFilter: 'boolean(//SimpleItem[@Name="port" and @Value="1"])' },
      { topicFilter: IO_PORT, contentFilter: 'boolean(//SimpleItem[@Name="port" and @Value="2"])' },
    ]);
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual([]);
  });

  it('finds nothing for sessions one after the other, or of two clients', () => {
    const b = new JournalBuilder();
    session(b, 's1', 0);
    b.at(5000).wsClose('s1');
    session(b, 's2', 6000);
    b.at(7000).wsOpen('s3', { remote: '10.0.0.9' });
    b.advance(50).configure('s3', [IO_PORT]);
    b.at(8000).notification('s2', IO_PORT);
    b.at(8000).notification('s3', IO_PORT);
    expect(ruleIds(b.grade(b.time(LATER)))).toEqual([]);
  });
});
