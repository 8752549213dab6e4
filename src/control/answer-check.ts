/**
 * Under the tests, every JSON answer of a route is checked against the schema the route
 * declares for its status (./route-answers), so that the OpenAPI document made from the same
 * schemas cannot drift from what is served: an answer that does not fit, or carries a field
 * the schema does not name, is logged as an error naming the route and answered 500
 * `INTERNAL`. The tests turn it on with {@link CHECK_ANSWERS_ENV} (test/setup/check-answers.js);
 * otherwise nothing is checked and nothing extra runs.
 */
import type { RequestHandler, Response } from 'express';
import { z } from 'zod';
import type { Logger } from '../base/log';
import type { ControlRoute } from './route';
import { INTERNAL_ERROR_BODY } from './control-error';
import { type AnswerBody, declaredAnswers } from './route-answers';

/** The environment variable that turns the check on (`1`); the Jest setup sets it. */
export const CHECK_ANSWERS_ENV = 'BWC_EMU_CHECK_RESPONSES';

/** Whether answers are checked: only when {@link CHECK_ANSWERS_ENV} is `1`. */
export function answersChecked(): boolean {
  return process.env[CHECK_ANSWERS_ENV] === '1';
}

/** What a bug answers, as ./control-error's `sendError` answers it. */

/**
 * The middleware (first of the route's) that checks each JSON answer `res.json` sends for
 * `route` against the route's schema for its status; a misfit is logged and answered 500.
 */
export function answerChecker(route: ControlRoute, log: Logger): RequestHandler {
  const answers = declaredAnswers(route);
  const name = `${route.method.toUpperCase()} /_emu${route.path}`;
  return (_req, res, next) => {
    const send = res.json.bind(res);
    res.json = ((body: unknown) => {
      const problem = misfit(answers.get(res.statusCode)?.body, res.statusCode, body);
      if (problem === undefined) return send(body);
      log.error({ route: name, status: res.statusCode, problem }, 'control API: the answer does not fit its schema');
      return send.call(res.status(500), INTERNAL_ERROR_BODY);
    }) as Response['json'];
    next();
  };
}

/**
 * Checks that a 204 route's handler answered nothing: a value it returns would be dropped,
 * undocumented. Throws (a bug, answered 500) under the check; does nothing otherwise.
 */
export function checkNoAnswer(route: ControlRoute, answer: unknown, checked: boolean): void {
  if (checked && answer !== undefined)
    throw new Error(`${route.method.toUpperCase()} /_emu${route.path} answers 204 but its handler returned a value`);
}

/** Why `body` sent with `status` does not fit `declared`, or undefined when it fits. */
function misfit(declared: AnswerBody | undefined, status: number, body: unknown): string | undefined {
  // A bug's 500 is already loud (logged as an error); its body is the fixed INTERNAL one.
  if (status === 500) return undefined;
  if (declared?.kind !== 'json') return `status ${status} is not declared with a JSON answer`;
  // What the client reads: the JSON text, not the handler's object (undefined fields, dates).
  const wire: unknown = body === undefined ? undefined : JSON.parse(JSON.stringify(body));
  const parsed = declared.schema.safeParse(wire);
  if (!parsed.success) return z.prettifyError(parsed.error);
  const extra = undeclaredField(wire, parsed.data, '');
  return extra === undefined ? undefined : `${extra}: a field the schema does not declare`;
}

/** The path of the first field of `wire` that parsing dropped (the schema does not name it), if any. */
function undeclaredField(wire: unknown, parsed: unknown, at: string): string | undefined {
  if (Array.isArray(wire) && Array.isArray(parsed))
    return firstOf(wire.map((item, i) => () => undeclaredField(item, parsed[i], `${at}[${i}]`)));
  if (!isObject(wire) || !isObject(parsed)) return undefined;
  return firstOf(
    Object.keys(wire).map((key) => () => {
      const path = at === '' ? key : `${at}.${key}`;
      return Object.hasOwn(parsed, key) ? undeclaredField(wire[key], parsed[key], path) : path;
    }),
  );
}

/** The first defined result of `checks`, run in order until one gives one. */
function firstOf(checks: readonly (() => string | undefined)[]): string | undefined {
  for (const check of checks) {
    const found = check();
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Whether `value` is a plain JSON object. */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
