/**
 * The answers a route is declared to give, by status: its usual answer, its other answers
 * and the refusals it may answer with. The OpenAPI document (./openapi) documents them, and
 * under the tests the answers sent are checked against them (./answer-check), so the two
 * read one declaration.
 */
import type { z } from 'zod';
import { refusalDocs } from './control-codes';
import type { ControlRoute } from './route';
import { ErrorSchema } from './schemas';

/** What a declared answer carries: JSON of a schema, nothing, or the event stream. */
export type AnswerBody =
  | { readonly kind: 'json'; readonly schema: z.ZodType }
  | { readonly kind: 'none' }
  | { readonly kind: 'event-stream'; readonly events: string };

/** One declared answer of a route. */
export interface DeclaredAnswer {
  readonly description: string;
  readonly body: AnswerBody;
}

/** The refusals every route may answer with, by status, and the route's own. */
function refusalsOf(route: ControlRoute): Record<number, string> {
  const refusals = refusalDocs('UNAUTHORIZED', 'FORBIDDEN', 'HOST_NOT_ALLOWED', 'CROSS_ORIGIN');
  if (route.whenReady || route.body || route.query)
    refusals[400] = 'BAD_REQUEST naming the field at fault, or the code of the error the emulator threw';
  if (route.body) Object.assign(refusals, refusalDocs('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'));
  if (route.whenReady)
    Object.assign(
      refusals,
      // What ./control-error answers for the emulator's own TIMEOUT and LIMIT errors.
      refusalDocs(
        ['TIMEOUT', 'the emulator gave up waiting (the error it threw)'],
        ['LIMIT', 'a limit of the emulator was reached (the error it threw)'],
        'NOT_READY',
      ),
    );
  for (const [status, description] of Object.entries(route.refusals)) {
    const known = refusals[Number(status)];
    refusals[Number(status)] = known ? `${known}; ${description}` : description;
  }
  return refusals;
}

/** The usual answer, the other answers and the refusals of `route` (a refusal's status wins over another answer's). */
export function declaredAnswers(route: ControlRoute): Map<number, DeclaredAnswer> {
  const answers = new Map<number, DeclaredAnswer>();
  answers.set(route.status, usualAnswer(route));
  for (const other of route.otherAnswers)
    answers.set(other.status, { description: other.description, body: { kind: 'json', schema: other.schema } });
  for (const [status, description] of Object.entries(refusalsOf(route)))
    answers.set(Number(status), { description, body: { kind: 'json', schema: ErrorSchema } });
  return answers;
}

/** The answer `route` gives when all goes well. */
function usualAnswer(route: ControlRoute): DeclaredAnswer {
  if (route.kind === 'event-stream')
    return { description: 'Server-Sent Events', body: { kind: 'event-stream', events: route.events } };
  if (route.status === 204 || !route.response) return { description: 'done', body: { kind: 'none' } };
  return { description: 'OK', body: { kind: 'json', schema: route.response } };
}
