/** Checks that come down to one request's status: the expected code, or which one came instead. */
import { randomUUID } from 'node:crypto';
import { RESERVED_CONTAINERS } from '../../protocol/body-worn';
import type { SwiftClient } from '../swift-client';
import { type Check, fail, type ConformanceFinding, pass } from './finding';

const MISSING_OBJECT: Check = { id: 'object.head-missing', title: 'HEAD of a missing object answered 404' };

/** One request's answer (or the error instead of one) against the expected statuses. */
export function statusFinding(
  check: Check,
  answer: { status: number } | Error,
  request: { method: string; path: string },
  expected: readonly number[],
): ConformanceFinding {
  if (answer instanceof Error) return fail(check, answer.message, request);
  const detail = `answered ${answer.status}`;
  if (expected.includes(answer.status)) return pass(check, detail);
  return fail(check, detail, { ...request, status: answer.status });
}

/** A HEAD of an object that cannot exist (a random name) must be answered 404, which is how clients test for one. */
export async function missingObjectFinding(client: SwiftClient): Promise<ConformanceFinding> {
  const path = `/${RESERVED_CONTAINERS.users}/${encodeURIComponent(`bwc-emu-check_missing-${randomUUID()}`)}`;
  const head = await client.request('HEAD', path).catch((err: Error) => err);
  return statusFinding(MISSING_OBJECT, head, { method: 'HEAD', path }, [404]);
}
