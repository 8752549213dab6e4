/** A time limit on one awaited step of a fuzz case: no answer in time is a hang, and fails the case. */
import { CASE_TIMEOUT_MS } from './fuzz-settings';

/** Resolves as `promise` does, or rejects naming `what` after `timeoutMs`. */
export function withinTime<T>(promise: Promise<T>, what: string, timeoutMs = CASE_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${timeoutMs} ms (a hang)`)), timeoutMs);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
