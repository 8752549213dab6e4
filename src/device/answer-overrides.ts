/**
 * Answer overrides: a test makes a device answer one of its CGIs (by JSON-RPC method, and by
 * a substring of the request) with a given JSON-RPC error, HTTP status, JSON body or delay,
 * for the next request, N times or until cleared. The table here is pure: matching and
 * counting; the CGI dispatch applies what it returns, after authentication.
 */
import type { ActiveOverride, OverrideSpec } from '../protocol/answer-override-spec';

/** What a request offers to match against. */
export interface OverrideRequest {
  /** The CGI's file name. */
  cgi: string;
  /** The JSON-RPC method the body named, if any. */
  method: string | undefined;
  /** The body (a GET: its query string). */
  text: string;
}

/** One device's overrides, in the order they were added: the first that matches answers. */
export class AnswerOverrides {
  private readonly active: ActiveOverride[] = [];
  private next = 1;

  /** How many are in force (the token fast path steps aside while any is). */
  get size(): number {
    return this.active.length;
  }

  /** Adds an override (already validated); returns it, with its id. */
  add(spec: OverrideSpec): ActiveOverride {
    const override: ActiveOverride = { ...spec, id: `o${this.next++}`, answered: 0 };
    this.active.push(override);
    return { ...override };
  }

  /** Removes override `id` (every one when undefined); returns the ids removed. */
  clear(id?: string): string[] {
    const gone = this.active.filter((o) => id === undefined || o.id === id);
    for (const o of gone) this.active.splice(this.active.indexOf(o), 1);
    return gone.map((o) => o.id);
  }

  /** Copies of the overrides in force. */
  list(): ActiveOverride[] {
    return this.active.map((o) => ({ ...o }));
  }

  /**
   * The override that answers `request`, counted as used (and gone once it has answered its
   * `times`); undefined when none matches.
   */
  take(request: OverrideRequest): ActiveOverride | undefined {
    const found = this.active.find((o) => matches(o, request));
    if (!found) return undefined;
    found.answered++;
    if (found.times !== undefined && found.answered >= found.times) this.active.splice(this.active.indexOf(found), 1);
    return { ...found };
  }
}

/** Whether `override` is for `request`: same CGI (case-insensitive, as paths), method and text. */
function matches(override: OverrideSpec, request: OverrideRequest): boolean {
  if (override.cgi.toLowerCase() !== request.cgi.toLowerCase()) return false;
  if (override.method !== undefined && override.method !== request.method) return false;
  return override.match === undefined || request.text.includes(override.match);
}
