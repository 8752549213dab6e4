/** Assertions on control API answers: a refusal's shape, a success matching its route's own schema. */
import type { Response } from 'supertest';
import { controlRoutes } from '../../../src/control/route-table';
import { ErrorSchema } from '../../../src/control/schemas';

/** Asserts `res` is the refusal `{ error: { code, message } }` with this status and code; returns the message. */
export function expectRefusal(res: Response, status: number, code: string): string {
  expect({ status: res.status, code: (res.body as { error?: { code?: string } }).error?.code }).toEqual({
    status,
    code,
  });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const parsed = ErrorSchema.parse(res.body);
  return parsed.error.message;
}

/**
 * Asserts `res` is the usual answer of the route `method path` (path as in the table,
 * e.g. `/devices/{serial}/flags`) and that its body fits the route's response schema.
 */
export function expectAnswer(res: Response, method: string, path: string): void {
  const route = controlRoutes(true).find((r) => r.method === method && r.path === path);
  if (!route) throw new Error(`no route ${method} ${path}`);
  expect(res.status).toBe(route.status);
  if (route.status === 204) return void expect(res.text).toBe('');
  expect(route.response?.safeParse(res.body).error).toBeUndefined();
}
