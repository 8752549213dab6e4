/** The `context` string a JSON-RPC request carries, which the device must echo in its answer. */

/** The `context` string of a payload that is a JSON object, if it has one. */
export function contextOf(payload: string | Buffer): string | undefined {
  try {
    const value = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8')) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const { context } = value as { context?: unknown };
    return typeof context === 'string' ? context : undefined;
  } catch {
    return undefined;
  }
}
