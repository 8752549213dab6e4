/**
 * Recordings made on a content destination for the recordings page tests: registered
 * users and cameras, recordings with clips (complete or not), refusals, rejected content.
 */
import { basicAuthorization, type HttpResult, sendRequest } from './http';
import type { SwiftSession } from './destinations';
import { type DestinationHandle, recordingContainerName } from '../../src';

const enc = encodeURIComponent;

/** Registers a user and a camera (creating `Users` and `Devices`). */
export async function register(session: SwiftSession, userId: string, serial: string): Promise<void> {
  for (const container of ['Users', 'Devices']) expectStatus(await session.send('PUT', `/${container}`), [201, 202]);
  expectStatus(
    await session.send('PUT', `/Users/${enc(userId)}`, {
      body: '',
      headers: { 'X-Object-Meta-Name': 'someone', 'X-Object-Meta-Active': 'True' },
    }),
    [201],
  );
  expectStatus(
    await session.send('PUT', `/Devices/${enc(serial)}`, {
      body: '',
      headers: { 'X-Object-Meta-Name': 'cam', 'X-Object-Meta-Active': 'True', 'X-Object-Meta-Model': 'W100' },
    }),
    [201],
  );
}

/** What a recording gets. */
export interface RecordingShape {
  /** One-second clips of `clipBytes` bytes (100 by default). */
  clips: number;
  complete: boolean;
  clipBytes?: number;
  /** Extra container metadata (header name after `X-Container-Meta-` -> value as sent). */
  metadata?: Record<string, string>;
}

/** Uploads a recording (container, clips, Complete when asked); returns its container name. */
export async function record(
  session: SwiftSession,
  userId: string,
  serial: string,
  trigger: number,
  shape: RecordingShape,
): Promise<string> {
  const container = recordingContainerName(userId, serial, trigger);
  const metadata = Object.fromEntries(
    Object.entries({ Status: 'Transferring', ...shape.metadata }).map(([k, v]) => [`X-Container-Meta-${k}`, v]),
  );
  expectStatus(await session.send('PUT', `/${enc(container)}`, { headers: metadata }), [201, 202]);
  const startS = trigger / 1000;
  for (let i = 0; i < shape.clips; i++) {
    const put = await session.send('PUT', `/${enc(container)}/${startS + i}_r.mkv`, {
      body: 'c'.repeat(shape.clipBytes ?? 100),
      headers: {
        'X-Object-Meta-Starttime': String(startS + i),
        'X-Object-Meta-Stoptime': String(startS + i + 1),
        'X-Object-Meta-Startlocation': 'J%C3%B6nk%C3%B6ping',
        'Content-Type': 'video/x-matroska',
      },
    });
    expectStatus(put, [201]);
  }
  if (shape.complete)
    expectStatus(
      await session.send('POST', `/${enc(container)}`, { headers: { 'X-Container-Meta-Status': 'Complete' } }),
      [204],
    );
  return container;
}

/** A recording container PUT the rules refuse (the user is not registered); returns its name. */
export async function refusedRecording(
  session: SwiftSession,
  userId: string,
  serial: string,
  trigger: number,
): Promise<string> {
  const container = recordingContainerName(userId, serial, trigger);
  expectStatus(await session.send('PUT', `/${enc(container)}`), [400]);
  return container;
}

/** A clip without duration in an existing recording: 400, the recording is not transferred. */
export async function refuseClip(session: SwiftSession, container: string): Promise<void> {
  expectStatus(await session.send('PUT', `/${enc(container)}/0_bad.mkv`, { body: 'x' }), [400]);
}

/** A rejected content container with one object; returns its name. */
export async function rejectedContent(session: SwiftSession, time: string, id: string): Promise<string> {
  const container = `RejectedContent_${time}_${id}`;
  expectStatus(await session.send('PUT', `/${enc(container)}`), [201]);
  expectStatus(await session.send('PUT', `/${enc(container)}/1_r.mkv`, { body: 'r'.repeat(2500) }), [201]);
  return container;
}

/** GET (or HEAD) of a page with Basic credentials (bws / secret by default). */
export function getPage(
  destination: DestinationHandle,
  path: string,
  options: { method?: string; user?: string; key?: string } = {},
): Promise<HttpResult> {
  return sendRequest(destination.url, {
    method: options.method ?? 'GET',
    path,
    headers: { Authorization: basicAuthorization(options.user ?? 'bws', options.key ?? 'secret') },
  });
}

/** The `<tr>` ... `</tr>` of a container on a page (its name as it appears escaped in the HTML). */
export function rowOf(html: string, escapedContainer: string): string | undefined {
  const start = html.indexOf(`data-container="${escapedContainer}"`);
  if (start < 0) return undefined;
  const from = html.lastIndexOf('<tr', start);
  return html.slice(from, html.indexOf('</tr>', start) + 5);
}

/** The containers of a table's rows, in page order. */
export function rowOrder(html: string, table: 'recordings' | 'rejected'): string[] {
  const at = html.indexOf(`<table class="${table}">`);
  if (at < 0) return [];
  const body = html.slice(at, html.indexOf('</table>', at));
  return [...body.matchAll(/<tr[^>]* data-container="([^"]*)"/g)].map((m) => m[1]);
}

function expectStatus(answer: HttpResult, statuses: number[]): void {
  if (!statuses.includes(answer.status))
    throw new Error(`expected ${statuses.join(' or ')}, got ${answer.status}: ${answer.body}`);
}
