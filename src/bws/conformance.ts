/**
 * `--check`: the body worn system uploads as usual and records every deviation of
 * the destination from the interface (status codes, ETags, auth headers, metadata
 * returned as sent, the 400s of the body worn rules). The 400s are provoked on
 * purpose with three clearly marked probe recordings (user `bwc-emu-check_unknown-user`,
 * camera `CHECKUNKNOWN`, a clip whose StopTime is its StartTime). Checks read the
 * collected exchanges; extra requests are made only for what they cannot show
 * (bodies of System objects, HEADs after the upload, a rename, a request without token).
 */
import { createHash, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import {
  CAPABILITY_NAMES,
  type CapabilityName,
  type ClipType,
  RESERVED_CONTAINERS,
  SYSTEM_OBJECTS,
} from '../protocol/body-worn';
import { type ConnectionFile, trustedCertificates } from '../protocol/connection-file';
import { type BodyWornOptions, etagMatches, runBodyWornSystem, type UploadReport } from './body-worn-system';
import { type ExpandedPlan, type PlannedRecording, planRecording } from './expand-plan';
import { DEFAULT_PLAN, type Plan, PlanSchema } from './plan';
import { type Exchange, header, SwiftClient, type SwiftResponse } from './swift-client';

/** One check: what was expected, and whether the destination did it. */
export interface Finding {
  /** Stable id, e.g. `auth.storage-url`. */
  id: string;
  title: string;
  passed: boolean;
  /** What was seen (why it failed, or a note). */
  detail?: string;
  /** The request that showed it (the first offending one when it failed). */
  request?: { method: string; path: string; status?: number };
  /** An advisory check (real clients use it, the interface does not require it): a failure does not fail the run. */
  advisory?: boolean;
}

/** The upload's report, the findings, and whether every non-advisory finding passed. */
export interface ConformanceResult {
  report: UploadReport;
  findings: Finding[];
  passed: boolean;
}

/** User id of the unknown-user probe (never registered). */
export const CHECK_UNKNOWN_USER = 'bwc-emu-check_unknown-user';
/** Camera serial of the unknown-device probe (never registered). */
export const CHECK_UNKNOWN_SERIAL = 'CHECKUNKNOWN';

const EMPTY_MD5 = createHash('md5').digest('hex');
type Probe = NonNullable<PlannedRecording['probe']>;
const PROBE_TITLES: Record<Probe, string> = {
  'unknown-user': 'a recording of an unknown user is answered 400',
  'unknown-device': 'a recording of an unknown camera is answered 400',
  'no-duration': 'a clip without duration (StopTime = StartTime) is answered 400',
};
/** Every check's id, in the order of the list (a check that does not apply, e.g. `system.categories` without ReadCategories, is left out). */
export const CHECK_IDS: readonly string[] = [
  'auth.status',
  'auth.token',
  'auth.storage-url',
  'auth.storage-token',
  'auth.token-expires',
  'auth.missing-token',
  'system.capabilities',
  'system.categories',
  'container.put',
  'container.post',
  'object.put',
  'object.put-etag',
  'object.post',
  'object.post-replaces',
  'object.head-missing',
  'metadata.container',
  'metadata.clip',
  'metadata.user',
  'probe.unknown-user',
  'probe.unknown-device',
  'probe.no-duration',
  'upload.completed',
];
/** Success and allowed error codes of each write, from the interface (plus Swift's 411/413/422 for object PUT). */
const STATUS_RULES = [
  {
    id: 'container.put',
    title: 'container PUT answered 201 (created) or 202 (exists)',
    method: 'PUT',
    kind: 'container',
    ok: [201, 202],
    errors: [400, 401, 403, 404, 500, 503],
  },
  {
    id: 'container.post',
    title: 'container POST answered 204',
    method: 'POST',
    kind: 'container',
    ok: [204],
    errors: [400, 401, 403, 404, 500],
  },
  {
    id: 'object.put',
    title: 'object PUT answered 201',
    method: 'PUT',
    kind: 'object',
    ok: [201],
    errors: [400, 401, 402, 403, 404, 411, 413, 422, 500, 503, 507],
  },
  {
    id: 'object.post',
    title: 'object POST answered 202',
    method: 'POST',
    kind: 'object',
    ok: [202],
    errors: [400, 401, 402, 403, 404, 500],
  },
] as const;

/**
 * Runs the body worn system over the plan plus the probes, collecting every exchange
 * (the caller's `onExchange` still hears each), then checks the destination. A run
 * that cannot start (e.g. no `X-Storage-Url`) gives findings too, not an exception.
 */
export async function runConformance(options: BodyWornOptions): Promise<ConformanceResult> {
  const exchanges: Exchange[] = [];
  const onExchange = (exchange: Exchange): void => {
    exchanges.push(exchange);
    options.onExchange?.(exchange);
  };
  const now = options.now ?? Date.now;
  let expanded: ExpandedPlan | undefined;
  let report: UploadReport;
  try {
    report = await runBodyWornSystem({
      ...options,
      plan: withRegistrations(options.plan ?? PlanSchema.parse(DEFAULT_PLAN)),
      onExchange,
      extraRecordings: (plan) => {
        expanded = plan;
        return [
          ...(options.extraRecordings?.(plan) ?? []),
          ...probeRecordings(plan, now(), options.connection.ContainerType),
        ];
      },
    });
  } catch (err) {
    const findings = [
      ...authFindings(exchanges),
      {
        id: 'upload.completed',
        title: 'the plan was uploaded',
        passed: false,
        detail: `the run stopped: ${(err as Error).message}`,
      },
    ];
    return { report: emptyReport(exchanges), findings, passed: false };
  }
  const findings = authFindings(exchanges);
  const client = new SwiftClient({
    connection: options.connection,
    retry: options.retry,
    sleep: options.sleep,
    random: options.random,
    onExchange,
  });
  try {
    findings.push(...(await systemFindings(client, exchanges, report, options.connection)));
    findings.push(...(await afterUpload(client, exchanges, report, expanded)));
    findings.push(await missingTokenFinding(report.storageUrl, options.connection));
    const missing = `/${RESERVED_CONTAINERS.users}/${encodeURIComponent(`bwc-emu-check_missing-${randomUUID()}`)}`;
    const head = await client.request('HEAD', missing).catch((err: Error) => err);
    findings.push(
      statusFinding('object.head-missing', 'HEAD of a missing object answered 404', head, 'HEAD', missing, [404]),
    );
  } finally {
    client.close();
  }
  findings.push(
    ...STATUS_RULES.map((rule) => statusRuleFinding(rule, exchanges, report)),
    etagFinding(exchanges, expanded),
  );
  findings.push(
    ...(['unknown-user', 'unknown-device', 'no-duration'] as const).map((probe) => probeFinding(probe, report)),
    completedFinding(report),
  );
  findings.sort((a, b) => CHECK_IDS.indexOf(a.id) - CHECK_IDS.indexOf(b.id));
  return { report, findings, passed: findings.every((f) => f.passed || f.advisory === true) };
}

/** The findings as a pass/fail list, one line each (PASS, FAIL, or WARN for a failed advisory check), and a summary line. */
export function formatFindings(findings: Finding[]): string {
  const width = Math.max(0, ...findings.map((f) => f.id.length));
  const lines = findings.map((f) => {
    const mark = f.passed ? 'PASS' : f.advisory ? 'WARN' : 'FAIL';
    const request = f.request
      ? ` [${f.request.method} ${f.request.path}${f.request.status === undefined ? '' : ` -> ${f.request.status}`}]`
      : '';
    return `${mark}  ${f.id.padEnd(width)}  ${f.title}${f.detail ? `: ${f.detail.replace(/\s*\n\s*/g, ' ')}` : ''}${request}`;
  });
  const failed = findings.filter((f) => !f.passed && !f.advisory).length;
  const warned = findings.filter((f) => !f.passed && f.advisory).length;
  const summary = `${failed ? 'FAIL' : 'PASS'}: ${findings.length - failed - warned} passed, ${failed} failed${warned ? `, ${warned} advisory warning${warned === 1 ? '' : 's'}` : ''} (${findings.length} checks)`;
  return [...lines, summary].join('\n');
}

/** A plan without users or cameras gets a marked one of each, so the probes have something registered to lean on. */
function withRegistrations(plan: Plan): Plan {
  const generated = plan.generate !== undefined;
  return {
    ...plan,
    users:
      plan.users.length || generated
        ? plan.users
        : [{ id: 'bwc-emu-check_user', name: 'bwc-emu check user', active: true }],
    devices:
      plan.devices.length || generated
        ? plan.devices
        : [{ serial: 'BWCEMUCHECK', name: 'bwc-emu check camera', model: 'W110', firmware: '11.11.73', active: true }],
  };
}

/** The three probes: one small clip each, RecordingID and trigger reasons `bwc-emu-check`. */
function probeRecordings(plan: ExpandedPlan, nowMs: number, type: ClipType): PlannedRecording[] {
  const user = plan.users[0]?.id ?? 'bwc-emu-check_user';
  const device = plan.devices[0];
  const serial = device?.id ?? 'BWCEMUCHECK';
  const model = device?.metadata.Model ?? 'W110';
  const base = Math.floor(nowMs / 1000) * 1000 - 60_000;
  const make = (probe: Probe, userId: string, camera: string, triggerOn: number): PlannedRecording => {
    const planned = planRecording(
      {
        user: userId,
        device: camera,
        'trigger-on-reason': 'bwc-emu-check',
        'trigger-off-reason': 'bwc-emu-check',
        clips: 1,
        'clip-duration': 1000,
        'clip-size': 16 * 1024,
        bookmarks: [],
        gps: false,
        timezone: 'UTC',
      },
      0,
      triggerOn,
      type,
      model,
      '11.11.73',
    );
    const id = `bwc-emu-check-${probe}`;
    const still = probe === 'no-duration';
    const clips = planned.clips.map((c) => ({
      ...c,
      name: `${c.start}_${id}.${type}`,
      stop: still ? c.start : c.stop,
    }));
    const m = planned.metadata;
    const metadata = still
      ? {
          ...m,
          StopTime: m.StartTime,
          StopTimeISO: m.StartTimeISO,
          TriggerOffTime: m.TriggerOnTime,
          TriggerOffTimeISO: m.TriggerOnTimeISO,
        }
      : m;
    return { ...planned, id, clips, metadata, probe };
  };
  // The no-duration probe uses a registered user and camera: its container must not be one of the plan's.
  let at = base;
  while (
    plan.recordings.some(
      (r) => r.userId === user && r.serial === serial && Math.floor(r.triggerOn / 1000) === at / 1000,
    )
  )
    at -= 1000;
  return [
    make('unknown-user', CHECK_UNKNOWN_USER, serial, base),
    make('unknown-device', user, CHECK_UNKNOWN_SERIAL, base),
    make('no-duration', user, serial, at),
  ];
}

/** The auth answer: 2xx with X-Auth-Token and a usable X-Storage-Url; X-Storage-Token and X-Auth-Token-Expires advisory. */
function authFindings(exchanges: Exchange[]): Finding[] {
  const auth = exchanges.find(
    (e) => requestHeader(e, 'x-auth-user') !== undefined && e.status !== undefined && e.status !== 503,
  );
  const title = 'auth answered 2xx';
  if (!auth) {
    const tried = exchanges.find((e) => requestHeader(e, 'x-auth-user') !== undefined);
    return [
      {
        id: 'auth.status',
        title,
        passed: false,
        detail: tried ? `no answer: ${tried.error ?? `status ${tried.status}`}` : 'no auth request was made',
      },
    ];
  }
  const request = { method: auth.method, path: auth.path, status: auth.status };
  const status = auth.status ?? 0;
  if (status < 200 || status > 299)
    return [{ id: 'auth.status', title, passed: false, detail: `answered ${status}`, request }];
  const token = header(auth.responseHeaders ?? {}, 'x-auth-token');
  const storage = header(auth.responseHeaders ?? {}, 'x-storage-url');
  const storageToken = header(auth.responseHeaders ?? {}, 'x-storage-token');
  const expires = header(auth.responseHeaders ?? {}, 'x-auth-token-expires');
  const usable = storage !== undefined && /^https?:\/\//i.test(storage) && URL.canParse(storage);
  return [
    { id: 'auth.status', title, passed: true, detail: `answered ${status}`, request },
    {
      id: 'auth.token',
      title: 'auth answer carries X-Auth-Token',
      passed: !!token,
      ...(token ? {} : { detail: 'no X-Auth-Token header', request }),
    },
    {
      id: 'auth.storage-url',
      title: 'auth answer carries a usable X-Storage-Url',
      passed: usable,
      ...(usable
        ? { detail: storage }
        : {
            detail:
              storage === undefined ? 'no X-Storage-Url header' : `X-Storage-Url "${storage}" is not an http(s) URL`,
            request,
          }),
    },
    {
      id: 'auth.storage-token',
      title: 'auth answer carries X-Storage-Token equal to X-Auth-Token',
      advisory: true,
      passed: storageToken !== undefined && storageToken === token,
      ...(storageToken === undefined
        ? { detail: 'no X-Storage-Token header' }
        : storageToken !== token
          ? { detail: 'X-Storage-Token differs from X-Auth-Token' }
          : {}),
    },
    {
      id: 'auth.token-expires',
      title: 'auth answer carries X-Auth-Token-Expires (seconds)',
      advisory: true,
      passed: expires !== undefined && /^\d+$/.test(expires.trim()),
      ...(expires === undefined
        ? { detail: 'no X-Auth-Token-Expires header' }
        : /^\d+$/.test(expires.trim())
          ? {}
          : { detail: `"${expires}" is not whole seconds` }),
    },
  ];
}

/** Capabilities.json (from the run's own GET when it made one) and Categories.json (fetched: its body is needed): 200 with ETag = MD5 of the body. */
async function systemFindings(
  client: SwiftClient,
  exchanges: Exchange[],
  report: UploadReport,
  connection: ConnectionFile,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const check = async (id: string, name: string): Promise<Finding> => {
    const path = `/${RESERVED_CONTAINERS.system}/${name}`;
    const title = `GET System/${name} answered 200 with an ETag that is the MD5 of its body`;
    const seen =
      name === SYSTEM_OBJECTS.capabilities && !connection.FullStoreAndReadSupport
        ? exchanges.find((e) => e.method === 'GET' && e.path === path && e.status !== undefined && e.status !== 503)
        : undefined;
    const answer: SwiftResponse | Error | undefined = seen
      ? undefined
      : await client.request('GET', path).catch((err: Error) => err);
    if (answer instanceof Error)
      return { id, title, passed: false, detail: answer.message, request: { method: 'GET', path } };
    const status = seen?.status ?? answer?.status ?? 0;
    const etag = header((seen ? seen.responseHeaders : answer?.headers) ?? {}, 'etag');
    const request = { method: 'GET', path, status };
    if (status !== 200) return { id, title, passed: false, detail: `answered ${status}`, request };
    if (etag === undefined) return { id, title, passed: false, detail: 'no ETag header', request };
    const matches = answer ? etagMatches(answer) : report.capabilitiesSource !== 'corrupt';
    const md5 = answer ? createHash('md5').update(answer.body).digest('hex') : 'the MD5 of the body';
    return matches
      ? { id, title, passed: true, detail: `ETag ${etag}` }
      : { id, title, passed: false, detail: `ETag ${etag} is not ${md5}`, request };
  };
  findings.push(await check('system.capabilities', SYSTEM_OBJECTS.capabilities));
  if (report.capabilities.ReadCategories) findings.push(await check('system.categories', SYSTEM_OBJECTS.categories));
  return findings;
}

/** HEADs of a recording container, one of its clips and a user (metadata as sent), then the rename of that user. */
async function afterUpload(
  client: SwiftClient,
  exchanges: Exchange[],
  report: UploadReport,
  plan: ExpandedPlan | undefined,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const written = (e: Exchange) =>
    e.status !== undefined && e.status >= 200 && e.status < 300 && (e.method === 'PUT' || e.method === 'POST');
  const recording = report.recordings.find((r) => !r.probe && r.status === 'transferred' && r.clips > 0);
  const containerPath = recording ? `/${encodeURIComponent(recording.container)}` : undefined;
  const containerMeta = metaOf(exchanges.filter((e) => written(e) && e.path === containerPath));
  const clip = exchanges.find(
    (e) =>
      written(e) &&
      e.method === 'PUT' &&
      containerPath !== undefined &&
      e.path.startsWith(`${containerPath}/`) &&
      /\.(mkv|mp4)$/i.test(e.path),
  );
  const userId = plan?.users.find(
    (u) => !report.registrationFailures.some((f) => f.kind === 'user' && f.id === u.id),
  )?.id;
  const userPath = userId === undefined ? undefined : `/${RESERVED_CONTAINERS.users}/${encodeURIComponent(userId)}`;
  const user = exchanges.find((e) => written(e) && e.method === 'PUT' && e.path === userPath);
  const targets = [
    {
      id: 'metadata.container',
      what: 'a recording container',
      path: containerPath,
      sent: containerPath ? containerMeta : undefined,
    },
    { id: 'metadata.clip', what: 'a clip', path: clip?.path, sent: clip ? metaOf([clip]) : undefined },
    { id: 'metadata.user', what: 'a user object', path: user?.path, sent: user ? metaOf([user]) : undefined },
  ];
  for (const t of targets) {
    const title = `HEAD of ${t.what} returns its X-*-Meta-* headers as sent`;
    if (t.path === undefined || t.sent === undefined) {
      findings.push({ id: t.id, title, passed: false, detail: `not checked: no ${t.what} was stored` });
      continue;
    }
    const head = await client.request('HEAD', t.path).catch((err: Error) => err);
    const request = { method: 'HEAD', path: t.path, ...(head instanceof Error ? {} : { status: head.status }) };
    if (head instanceof Error || head.status < 200 || head.status > 299) {
      findings.push({
        id: t.id,
        title,
        passed: false,
        detail: head instanceof Error ? head.message : `answered ${head.status}`,
        request,
      });
      continue;
    }
    const wrong = Object.entries(t.sent).filter(([name, value]) => header(head.headers, name.toLowerCase()) !== value);
    const shown = wrong
      .slice(0, 4)
      .map(
        ([name, value]) =>
          `${name}: sent "${value}", got ${header(head.headers, name.toLowerCase()) === undefined ? 'nothing' : `"${header(head.headers, name.toLowerCase())}"`}`,
      );
    findings.push(
      wrong.length
        ? {
            id: t.id,
            title,
            passed: false,
            detail: `${wrong.length} of ${Object.keys(t.sent).length} differ: ${shown.join('; ')}${wrong.length > 4 ? '; ...' : ''}`,
            request,
          }
        : { id: t.id, title, passed: true, detail: `${Object.keys(t.sent).length} headers` },
    );
  }
  findings.push(await renameFinding(client, user));
  return findings;
}

/**
 * POST replaces an object's metadata: POST the user's metadata plus a marker key,
 * then POST it with a new name (no marker); HEAD must show the new name and no
 * marker. The original metadata is POSTed back at the end.
 */
async function renameFinding(client: SwiftClient, put: Exchange | undefined): Promise<Finding> {
  const id = 'object.post-replaces';
  const title = 'object POST replaces the metadata (rename: HEAD shows the new name, not an old key)';
  if (!put) return { id, title, passed: false, detail: 'not checked: no user object was stored' };
  const original = metaOf([put]);
  const nameKey = Object.keys(original).find((k) => k.toLowerCase() === 'x-object-meta-name') ?? 'X-Object-Meta-Name';
  const renamed = `${decode(original[nameKey] ?? '')} (bwc-emu-check rename)`;
  const marker = 'X-Object-Meta-Bwcemucheck';
  const posts = [
    { ...original, [marker]: 'old-key' },
    { ...original, [nameKey]: encodeURIComponent(renamed) },
  ];
  try {
    for (const headers of posts) {
      const answer = await client.request('POST', put.path, headers);
      if (answer.status < 200 || answer.status > 299)
        return {
          id,
          title,
          passed: false,
          detail: `not checked: the POST answered ${answer.status}`,
          request: { method: 'POST', path: put.path, status: answer.status },
        };
    }
    const head = await client.request('HEAD', put.path);
    const request = { method: 'HEAD', path: put.path, status: head.status };
    const name = header(head.headers, 'x-object-meta-name');
    const problems = [
      ...(head.status < 200 || head.status > 299 ? [`HEAD answered ${head.status}`] : []),
      ...(name === undefined || decode(name) !== renamed
        ? [`the name is ${name === undefined ? 'missing' : `"${decode(name)}"`}, not "${renamed}"`]
        : []),
      ...(header(head.headers, marker.toLowerCase()) !== undefined
        ? [`${marker} from the earlier POST is still there (POST merged instead of replacing)`]
        : []),
    ];
    const restore = await client.request('POST', put.path, original);
    const restored =
      restore.status >= 200 && restore.status < 300
        ? 'original metadata POSTed back'
        : `restoring the original metadata answered ${restore.status}`;
    return problems.length
      ? { id, title, passed: false, detail: `${problems.join('; ')} (${restored})`, request }
      : { id, title, passed: true, detail: `${put.path} renamed and back (${restored})` };
  } catch (err) {
    return { id, title, passed: false, detail: (err as Error).message, request: { method: 'POST', path: put.path } };
  }
}

/** A request without X-Auth-Token (sent with node:http straight to the storage URL) must be answered 401. */
async function missingTokenFinding(storageUrl: string, connection: ConnectionFile): Promise<Finding> {
  const url = new URL(`${storageUrl}/${RESERVED_CONTAINERS.system}/${SYSTEM_OBJECTS.capabilities}`);
  const trusted = trustedCertificates(connection);
  const status = await new Promise<number | Error>((resolve) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: 'GET',
        agent: false,
        timeout: 30_000,
        ...(trusted.length ? { ca: [...rootCertificates, ...trusted] } : {}),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', resolve);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', resolve);
    req.end();
  });
  return statusFinding(
    'auth.missing-token',
    'a request without X-Auth-Token is answered 401',
    status instanceof Error ? status : { status },
    'GET',
    url.pathname,
    [401],
  );
}

/** One request's status against the expected ones. */
function statusFinding(
  id: string,
  title: string,
  answer: { status: number } | Error,
  method: string,
  path: string,
  expected: number[],
): Finding {
  if (answer instanceof Error) return { id, title, passed: false, detail: answer.message, request: { method, path } };
  const passed = expected.includes(answer.status);
  return {
    id,
    title,
    passed,
    detail: `answered ${answer.status}`,
    ...(passed ? {} : { request: { method, path, status: answer.status } }),
  };
}

/** Every answered write of a kind: its success code as the interface says, or an error code the interface lists. A probe's 400 is expected. */
function statusRuleFinding(rule: (typeof STATUS_RULES)[number], exchanges: Exchange[], report: UploadReport): Finding {
  const probes = new Set(report.recordings.filter((r) => r.probe).map((r) => `/${encodeURIComponent(r.container)}`));
  const seen = exchanges.filter(
    (e) =>
      e.method === rule.method &&
      kindOf(e) === rule.kind &&
      e.status !== undefined &&
      e.status !== 503 &&
      e.status !== 401,
  );
  const counted = seen.filter((e) => !(e.status === 400 && probes.has(e.path.replace(/^(\/[^/]*).*$/, '$1'))));
  const wrong = counted.filter(
    (e) =>
      !(rule.ok as readonly number[]).includes(e.status as number) &&
      !(rule.errors as readonly number[]).includes(e.status as number),
  );
  const histogram = [...new Set(counted.map((e) => e.status))]
    .map((s) => `${s} x${counted.filter((e) => e.status === s).length}`)
    .join(', ');
  if (counted.length === 0)
    return { id: rule.id, title: rule.title, passed: false, detail: 'not checked: no such request was answered' };
  const first = wrong[0];
  return {
    id: rule.id,
    title: rule.title,
    passed: !first,
    detail: `${counted.length} answered (${histogram})${first ? `; ${wrong.length} with a status the interface does not give here` : ''}`,
    ...(first ? { request: { method: first.method, path: first.path, status: first.status } } : {}),
  };
}

/** Every successful object PUT answered with an ETag equal to the MD5 of what was sent. */
function etagFinding(exchanges: Exchange[], plan: ExpandedPlan | undefined): Finding {
  const md5ByName = new Map<string, string>();
  for (const r of plan?.recordings ?? [])
    for (const o of [...r.bookmarks, ...(r.gpsTrail ? [r.gpsTrail] : [])])
      md5ByName.set(encodeURIComponent(o.name), createHash('md5').update(o.body).digest('hex'));
  const empty = new Set<string>([RESERVED_CONTAINERS.users, RESERVED_CONTAINERS.devices, RESERVED_CONTAINERS.system]);
  const puts = exchanges.filter(
    (e) => e.method === 'PUT' && kindOf(e) === 'object' && e.status !== undefined && e.status >= 200 && e.status < 300,
  );
  const problems: { e: Exchange; detail: string }[] = [];
  for (const e of puts) {
    const [container, object] = splitPath(e.path);
    const expected =
      requestHeader(e, 'etag')?.replace(/"/g, '').toLowerCase() ??
      md5ByName.get(object) ??
      (empty.has(decode(container)) ? EMPTY_MD5 : undefined);
    const etag = header(e.responseHeaders ?? {}, 'etag')
      ?.replace(/"/g, '')
      .toLowerCase();
    if (etag === undefined) problems.push({ e, detail: 'no ETag' });
    else if (expected !== undefined && etag !== expected)
      problems.push({ e, detail: `ETag ${etag} is not the MD5 sent, ${expected}` });
  }
  const title = 'object PUT answered with an ETag equal to the MD5 of the body sent';
  const first = problems[0];
  if (puts.length === 0)
    return { id: 'object.put-etag', title, passed: false, detail: 'not checked: no object PUT succeeded' };
  return first
    ? {
        id: 'object.put-etag',
        title,
        passed: false,
        detail: `${problems.length} of ${puts.length}: ${first.detail}`,
        request: { method: 'PUT', path: first.e.path, status: first.e.status },
      }
    : { id: 'object.put-etag', title, passed: true, detail: `${puts.length} PUTs` };
}

/** A probe must end "not transferred" by a 400. Re-uploading it as rejected content is what a body worn system does; that upload is judged like any other. */
function probeFinding(probe: Probe, report: UploadReport): Finding {
  const id = `probe.${probe}`;
  const title = PROBE_TITLES[probe];
  const r = report.recordings.find((x) => x.probe === probe);
  if (!r) return { id, title, passed: false, detail: 'the probe was not uploaded' };
  const request = r.request
    ? {
        method: r.request.method,
        path: r.request.path,
        ...(r.request.status === undefined ? {} : { status: r.request.status }),
      }
    : undefined;
  const rejected = r.rejectedContent
    ? `; then re-uploaded as rejected content ${r.rejectedContent} (StoreRejectedContent), as a body worn system does`
    : '';
  if (r.status === 'not transferred' && r.request?.status === 400)
    return { id, title, passed: true, detail: `${r.container}: 400${rejected}`, ...(request ? { request } : {}) };
  if (r.status === 'transferred')
    return {
      id,
      title,
      passed: false,
      detail: `${r.container} was accepted: every request answered 2xx`,
      request: { method: 'PUT', path: `/${encodeURIComponent(r.container)}` },
    };
  return {
    id,
    title,
    passed: false,
    detail: `${r.container}: ${r.request?.status ?? r.request?.message ?? 'failed'} instead of 400`,
    ...(request ? { request } : {}),
  };
}

/** Every registration and every plan recording (not the probes) was accepted. */
function completedFinding(report: UploadReport): Finding {
  const title = 'the plan was uploaded: every registration and recording accepted';
  const bad = report.recordings.filter((r) => !r.probe && r.status !== 'transferred');
  const problems = [
    ...report.registrationFailures.map(
      (f) => `${f.kind} ${f.id}: ${f.request.method} ${f.request.path} -> ${f.request.status ?? f.request.message}`,
    ),
    ...bad.map(
      (r) =>
        `${r.container} ${r.status}: ${r.request ? `${r.request.method} ${r.request.path} -> ${r.request.status ?? r.request.message}` : ''}`,
    ),
  ];
  const plan = report.recordings.filter((r) => !r.probe).length;
  return problems.length
    ? {
        id: 'upload.completed',
        title,
        passed: false,
        detail: `${problems.length} problem(s): ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? '; ...' : ''}`,
      }
    : {
        id: 'upload.completed',
        title,
        passed: true,
        detail: `${plan} recordings, ${report.usersRegistered} users, ${report.devicesRegistered} cameras`,
      };
}

/** The X-*-Meta-* request headers of exchanges, later ones overriding earlier (case-insensitive names). */
function metaOf(exchanges: Exchange[]): Record<string, string> {
  const byLower = new Map<string, [string, string]>();
  for (const e of exchanges)
    for (const [name, value] of Object.entries(e.requestHeaders))
      if (/^x-(container|object)-meta-/i.test(name)) byLower.set(name.toLowerCase(), [name, value]);
  return Object.fromEntries(byLower.values());
}

function requestHeader(exchange: Exchange, name: string): string | undefined {
  return Object.entries(exchange.requestHeaders).find(([k]) => k.toLowerCase() === name)?.[1];
}

function splitPath(path: string): [string, string] {
  const cut = path.indexOf('/', 1);
  return cut < 0 ? [path.slice(1), ''] : [path.slice(1, cut), path.slice(cut + 1)];
}

function kindOf(exchange: Exchange): 'auth' | 'account' | 'container' | 'object' {
  if (requestHeader(exchange, 'x-auth-user') !== undefined) return 'auth';
  const [container, object] = splitPath(exchange.path);
  return container === '' ? 'account' : object === '' ? 'container' : 'object';
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function emptyReport(exchanges: Exchange[]): UploadReport {
  const none = Object.fromEntries(CAPABILITY_NAMES.map((n) => [n, false])) as Record<CapabilityName, boolean>;
  return {
    storageUrl: '',
    capabilities: none,
    capabilitiesSource: 'missing',
    categories: [],
    registrationFailures: [],
    usersRegistered: 0,
    devicesRegistered: 0,
    recordings: [],
    totals: {
      recordings: 0,
      transferred: 0,
      notTransferred: 0,
      failed: 0,
      bytes: 0,
      seconds: 0,
      megabytesPerSecond: 0,
    },
    requests: exchanges.length,
    retries: exchanges.filter((e) => e.attempt > 1).length,
  };
}
