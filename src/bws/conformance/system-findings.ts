/**
 * The System objects: GET Capabilities.json (and Categories.json when the destination
 * offers ReadCategories) answered 200 with an ETag that is the MD5 of the body. With
 * `FullStoreAndReadSupport: true` in the connection file a missing one (404) only warns:
 * the body worn system then assumes everything supported and no categories (the
 * defaults), and a stock Swift has no System objects until someone stores them.
 */
import { createHash } from 'node:crypto';
import { RESERVED_CONTAINERS, SYSTEM_OBJECTS } from '../../protocol/body-worn';
import type { ConnectionFile } from '../../protocol/connection-file';
import type { UploadReport } from '../body-worn-system';
import { etagMatches } from '../destination-capabilities';
import { type Exchange, header, type SwiftClient, type SwiftResponse } from '../swift-client';
import { answered, responseHeader } from './exchanges';
import { fail, type ConformanceFinding, pass } from './finding';

/** A GET of a System object, as far as the check needs it. */
interface SystemAnswer {
  status: number;
  etag: string | undefined;
  /** Whether the ETag is the MD5 of the body. */
  matches: boolean;
  /** The MD5 of the body, for the detail of a mismatch. */
  md5: string;
}

/** Capabilities.json from the run's own GET when it made one; Categories.json is fetched (its body is needed). */
export async function systemFindings(
  client: SwiftClient,
  exchanges: Exchange[],
  report: UploadReport,
  connection: ConnectionFile,
): Promise<ConformanceFinding[]> {
  // With FullStoreAndReadSupport the run does not GET Capabilities.json: there is nothing of its own to read.
  const ownGet = connection.FullStoreAndReadSupport
    ? undefined
    : exchanges.find((e) => e.method === 'GET' && e.path === systemPath(SYSTEM_OBJECTS.capabilities) && answered(e));
  const seen = ownGet && fromRun(ownGet, report);
  const full = connection.FullStoreAndReadSupport === true;
  const findings = [await systemObjectFinding(client, 'system.capabilities', SYSTEM_OBJECTS.capabilities, seen, full)];
  if (report.capabilities.ReadCategories)
    findings.push(await systemObjectFinding(client, 'system.categories', SYSTEM_OBJECTS.categories, undefined, full));
  return findings;
}

/** What the body worn system assumes for a missing System object under FullStoreAndReadSupport. */
const DEFAULTS: Record<string, string> = {
  [SYSTEM_OBJECTS.capabilities]: 'every capability supported',
  [SYSTEM_OBJECTS.categories]: 'no categories',
};

/** One System object's finding, from what the run saw or else from a GET of its own; `full`: FullStoreAndReadSupport. */
async function systemObjectFinding(
  client: SwiftClient,
  id: string,
  name: string,
  seen: SystemAnswer | undefined,
  full: boolean,
): Promise<ConformanceFinding> {
  const path = systemPath(name);
  const check = { id, title: `GET System/${name} answered 200 with an ETag that is the MD5 of its body` };
  const answer = seen ?? (await fetchSystemObject(client, path));
  if (answer instanceof Error) return fail(check, answer.message, { method: 'GET', path });
  const request = { method: 'GET', path, status: answer.status };
  if (answer.status === 404 && full)
    return fail(
      { ...check, advisory: true },
      `answered 404: FullStoreAndReadSupport is true, so the defaults apply (${DEFAULTS[name] ?? 'none'})`,
      request,
    );
  if (answer.status !== 200) return fail(check, `answered ${answer.status}`, request);
  if (answer.etag === undefined) return fail(check, 'no ETag header', request);
  if (!answer.matches) return fail(check, `ETag ${answer.etag} is not ${answer.md5}`, request);
  return pass(check, `ETag ${answer.etag}`);
}

/** The run's GET kept no body; the run judged the ETag itself (`corrupt` when it did not match). */
function fromRun(exchange: Exchange, report: UploadReport): SystemAnswer {
  return {
    status: exchange.status ?? 0,
    etag: responseHeader(exchange, 'etag'),
    matches: report.capabilitiesSource !== 'corrupt',
    md5: 'the MD5 of the body',
  };
}

/** A GET of our own, which has the body to hash. */
async function fetchSystemObject(client: SwiftClient, path: string): Promise<SystemAnswer | Error> {
  const answer: SwiftResponse | Error = await client.request('GET', path).catch((err: Error) => err);
  if (answer instanceof Error) return answer;
  return {
    status: answer.status,
    etag: header(answer.headers, 'etag'),
    matches: etagMatches(answer),
    md5: createHash('md5').update(answer.body).digest('hex'),
  };
}

/** Where a System object lives under the storage URL. */
function systemPath(name: string): string {
  return `/${RESERVED_CONTAINERS.system}/${name}`;
}
