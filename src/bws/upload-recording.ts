/**
 * Uploading one recording in the real order: the container with its full metadata
 * and `Status: Transferring`, each clip (streamed, `ETag` sent, the answer's `ETag`
 * checked), bookmarks and the GNSS trail when the destination stores them, then
 * `Status: Complete`. A 400 anywhere makes the recording "not transferred"; any other
 * failure is reported with the request that got it. Nothing is silently skipped.
 */
import { randomUUID } from 'node:crypto';
import { type Clock, systemClock } from '../base/clock';
import { type CapabilityName, type Category, formatCompactUtc } from '../protocol/body-worn';
import { canonicalHeaderName } from '../protocol/swift';
import type { PlannedClip, PlannedRecording } from './expand-plan';
import { clipMd5, clipStream } from './media';
import { type BodySource, header, type SwiftClient, type SwiftResponse } from './swift-client';

/** What became of a recording. */
export type UploadStatus = 'transferred' | 'not transferred' | 'failed';

/** The request that decided a recording's fate. */
export interface FailedRequest {
  method: string;
  path: string;
  status?: number;
  /** The answer's body (first 300 characters) or the network error. */
  message: string;
}

/** A failed request in one line, for a log field or a message: `PUT /v1/... -> 503` (or the network error). */
export function failedRequestText(request: FailedRequest): string {
  return `${request.method} ${request.path} -> ${request.status ?? request.message}`;
}

/** One recording in the report. */
export interface RecordingReport {
  container: string;
  userId: string;
  serial: string;
  status: UploadStatus;
  clips: number;
  /** Clip bytes stored. */
  bytes: number;
  seconds: number;
  /** Why it was not transferred, or why it failed. */
  request?: FailedRequest;
  /** The `RejectedContent_...` container it went to instead (StoreRejectedContent). */
  rejectedContent?: string;
  /** Things that did not stop the upload but are not as they should be (e.g. no ETag answered). */
  warnings: string[];
  probe?: PlannedRecording['probe'];
  /** Tries of its requests that were retries (after a 500, 503, 429 or no answer); absent when none. */
  retries?: number;
}

/** What an upload needs besides the recording. */
export interface UploadContext {
  client: SwiftClient;
  capabilities: Record<CapabilityName, boolean>;
  /** Categories read from `System/Categories.json`: a bookmark's CategoryName comes from its CategoryID. */
  categories?: Category[];
  /** Bytes of clip data sent so far (for progress), called as they stream. */
  onBytes?: (bytes: number) => void;
  /** Epoch ms, for rejected-content names. */
  now: () => number;
  /** Measures how long the upload took (default: the wall clock). */
  clock?: Clock;
}

/** Uploads `recording`; never throws for an answer, only reports. */
export async function uploadRecording(ctx: UploadContext, recording: PlannedRecording): Promise<RecordingReport> {
  const clock = ctx.clock ?? systemClock;
  const started = clock.now();
  const report: RecordingReport = {
    container: recording.container,
    userId: recording.userId,
    serial: recording.serial,
    status: 'transferred',
    clips: 0,
    bytes: 0,
    seconds: 0,
    warnings: [],
    ...(recording.probe ? { probe: recording.probe } : {}),
  };
  const outcome = await uploadInto(ctx, recording, recording.container, report);
  if (outcome.status === 400) {
    report.status = 'not transferred';
    report.request = outcome.request;
    if (ctx.capabilities.StoreRejectedContent) {
      const rejected = `RejectedContent_${formatCompactUtc(recording.triggerOn)}_${randomUUID()}`;
      const again = await uploadInto(ctx, recording, rejected, { ...report, warnings: [] }, 'rejected content');
      if (again.status === 'ok') report.rejectedContent = rejected;
      else
        report.warnings.push(
          `re-upload as rejected content ${rejected} failed: ${again.request.method} ${again.request.path} -> ${again.request.status ?? again.request.message}`,
        );
    }
  } else if (outcome.status !== 'ok') {
    report.status = 'failed';
    report.request = outcome.request;
  }
  report.seconds = (clock.now() - started) / 1000;
  return report;
}

type Outcome = { status: 'ok' } | { status: 400 | 'failed'; request: FailedRequest };

async function uploadInto(
  ctx: UploadContext,
  recording: PlannedRecording,
  container: string,
  report: RecordingReport,
  as: 'recording' | 'rejected content' = 'recording',
): Promise<Outcome> {
  const base = `/${encodeURIComponent(container)}`;
  const containerHeaders = metaHeaders('container', {
    ...recording.metadata,
    ...(as === 'rejected content' ? { ContainerName: container } : {}),
    Status: 'Transferring',
  });
  const put = await step(ctx, 'PUT', base, containerHeaders, undefined, [201, 202]);
  if (put.status !== 'ok') return put;
  for (const clip of recording.clips) {
    const sent = await uploadClip(ctx, base, clip, report);
    if (sent.status !== 'ok') return sent;
  }
  const extras = [
    ...(ctx.capabilities.StoreBookmarks ? recording.bookmarks : []),
    ...(ctx.capabilities.StoreGNSSTrackRecording && recording.gpsTrail ? [recording.gpsTrail] : []),
  ];
  for (const object of extras) {
    const body = Buffer.from(object.body);
    const metadata =
      'CategoryID' in object.metadata
        ? {
            ...object.metadata,
            CategoryName:
              ctx.categories?.find((c) => c.Id === object.metadata.CategoryID)?.Name ?? object.metadata.CategoryName,
          }
        : object.metadata;
    const sent = await step(
      ctx,
      'PUT',
      `${base}/${encodeURIComponent(object.name)}`,
      {
        ...metaHeaders('object', metadata),
        'Content-Type': object.name.endsWith('.json') ? 'application/json' : 'application/octet-stream',
      },
      () => body,
      [201],
    );
    if (sent.status !== 'ok') return sent;
  }
  return step(ctx, 'POST', base, metaHeaders('container', { Status: 'Complete' }), undefined, [204, 202, 200]);
}

async function uploadClip(
  ctx: UploadContext,
  base: string,
  clip: PlannedClip,
  report: RecordingReport,
): Promise<Outcome> {
  const spec = { type: clip.type, bytes: clip.bytes, durationSeconds: clip.stop - clip.start, seed: clip.seed };
  const md5 = await clipMd5(spec);
  const headers = {
    ...metaHeaders('object', {
      StartTime: String(clip.start),
      StartTimeISO: iso(clip.start),
      StopTime: String(clip.stop),
      StopTimeISO: iso(clip.stop),
      ContainerType: clip.type,
      StartLocation: '',
      StopLocation: '',
    }),
    'Content-Type': clip.type === 'mkv' ? 'video/x-matroska' : 'video/mp4',
    'Content-Length': String(clip.bytes),
    ETag: md5,
  };
  // A retry sends the clip again: take back what the failed try counted, so progress never passes 100%.
  let countedThisTry = 0;
  const body = () => {
    if (countedThisTry > 0) ctx.onBytes?.(-countedThisTry);
    countedThisTry = 0;
    const stream = clipStream(spec);
    if (ctx.onBytes) {
      stream.on('data', (chunk: Buffer) => {
        countedThisTry += chunk.length;
        ctx.onBytes?.(chunk.length);
      });
    }
    return stream;
  };
  const path = `${base}/${encodeURIComponent(clip.name)}`;
  const sent = await step(ctx, 'PUT', path, headers, body, [201]);
  if (sent.status !== 'ok') return sent;
  const answered = header(sent.answer.headers, 'etag')?.replace(/"/g, '').toLowerCase();
  if (answered === undefined)
    report.warnings.push(`PUT ${path} answered 201 without an ETag; the clip could not be verified`);
  else if (answered !== md5)
    return {
      status: 'failed',
      request: {
        method: 'PUT',
        path,
        status: 201,
        message: `the answer's ETag ${answered} is not the clip's MD5 ${md5}: stored data is corrupt`,
      },
    };
  report.clips += 1;
  report.bytes += clip.bytes;
  return { status: 'ok' };
}

/** One request: ok on an expected status, 400 (not transferred), or failed with the request. */
async function step(
  ctx: UploadContext,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: BodySource | undefined,
  expected: number[],
): Promise<{ status: 'ok'; answer: SwiftResponse } | { status: 400 | 'failed'; request: FailedRequest }> {
  let answer: SwiftResponse;
  try {
    answer = await ctx.client.request(method, path, headers, body);
  } catch (err) {
    return { status: 'failed', request: { method, path, message: (err as Error).message } };
  }
  if (expected.includes(answer.status) || (answer.status >= 200 && answer.status < 300))
    return { status: 'ok', answer };
  const message = answer.body.toString('utf8').trim().slice(0, 300);
  const request = {
    method,
    path,
    status: answer.status,
    message: answer.gaveUp ? `${message} (gave up: ${answer.gaveUp})`.trim() : message,
  };
  return { status: answer.status === 400 ? 400 : 'failed', request };
}

/** `X-{Kind}-Meta-{Name}` headers in Swift's form, values URL-encoded UTF-8. */
export function metaHeaders(kind: 'container' | 'object', metadata: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  // An empty value would remove the item in Swift, so empty fields are not sent.
  for (const [name, value] of Object.entries(metadata))
    if (value !== '') headers[canonicalHeaderName(`x-${kind}-meta-${name}`)] = encodeURIComponent(value);
  return headers;
}

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.000Z$/, 'Z');
}
