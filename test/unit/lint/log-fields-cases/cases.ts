/**
 * Cases of the `local/log-fields` lint rule (eslint-rules/log-fields.js): each line the rule
 * must flag ends in `// expect: <messageId>`; every other line must pass. Linted by
 * ../log-fields.test.ts with this directory's tsconfig; never run.
 */
import type { IncomingMessage } from 'node:http';
import { errorOf, type LogFields, type Logger } from '../../../../src/base/log';

/** Passes fields on, as a helper that logs for its callers does. */
function note(log: Logger, message: string, fields: LogFields): void {
  log.info({ ...fields, note: true }, message);
}

/** Every shape the rule sees, good and bad. */
export function cases(log: Logger, req: IncomingMessage, options: { key: string }, caught: unknown): void {
  const where = { url: req.url, method: req.method };
  const level = 'info' as const;
  // Good: named fields of text, numbers, flags and lists of them; a message only; an Error.
  log.info('a message only');
  log.info({ url: req.url, status: 200, ok: true, names: ['a', 'b'] }, 'named fields');
  log.error({ err: errorOf(caught), err2: String(caught) }, 'an error');
  log.error({ err: new Error('x') }, 'an Error');
  log[level]({ method: req.method }, 'a level chosen at run time');
  log.child({ device: 'ACCC8E000001' }).debug({ n: 1 }, 'a child');
  note(log, 'passed on', { url: req.url });
  const fields: LogFields = { url: req.url };
  note(log, 'passed on again', fields);
  // Bad: a whole object, a spread, an object field, a computed key, an unknown err.
  log.info(req, 'the request'); // expect: notLiteral
  log.info(where, 'a variable'); // expect: notLiteral
  log.info({ ...where }, 'a spread'); // expect: spread
  log.info({ headers: req.headers }, 'headers'); // expect: objectField
  log.info({ options }, 'an option bag'); // expect: objectField
  log.info({ ['k' + 'ey']: 1 }, 'a computed key'); // expect: computed
  log.error({ err: caught }, 'unknown'); // expect: errField
  log.child({ req }); // expect: objectField
  note(log, 'headers passed on', req.headers); // expect: notLiteral
  note(log, 'a spread passed on', { ...where }); // expect: spread
  const passed: LogFields = req.headers; // expect: notLiteral
  note(log, 'the bad one', passed);
}
