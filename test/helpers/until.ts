/** Waiting for a condition that becomes true through I/O (a socket read, a journal write), with a timeout instead of a sleep. */
import { WAIT_MS } from './event-stream-client';

/** How long to wait between two checks: short, and still a timer (an idle loop, not a busy core). */
const POLL_MS = 2;

/** Resolves once `ready()` is true, checked every few milliseconds; fails naming `what` after `timeoutMs`. */
export async function until(ready: () => boolean, what: string, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
