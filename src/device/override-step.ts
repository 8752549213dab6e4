/**
 * Where the CGI dispatch applies answer overrides (./answer-overrides), after authentication:
 * the JSON-RPC CGIs once they have read the body (./rpc-endpoint), the others as a step after
 * the auth step. An override answered is journaled like any answer, with its id.
 */
import type { RequestHandler, Response } from 'express';
import type { ActiveOverride, OverrideAnswer } from '../protocol/answer-override-spec';
import type { OverrideRequest } from './answer-overrides';
import { deviceOf, requestLocals } from './device-context';

/** The override that answers this request, counted and named in its journal entry; undefined for none. */
export function takeOverride(res: Response, request: OverrideRequest): ActiveOverride | undefined {
  const { overrides, log } = deviceOf(res);
  const override = overrides?.take(request);
  if (!override) return undefined;
  requestLocals(res).override = override.id;
  log.info({ override: override.id, cgi: request.cgi, method: request.method }, 'answer override');
  return override;
}

/** Resolves after `ms` (an override's delay before the real answer). */
export function overrideDelay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Answers an HTTP status or a JSON body override. */
export function answerPlain(
  res: Response,
  answer: Extract<OverrideAnswer, { status: number } | { body: object }>,
): void {
  if ('status' in answer) {
    res
      .status(answer.status)
      .type('text/plain')
      .send(answer.body ?? `HTTP ${answer.status}\n`);
  } else {
    res.status(200).type('application/json').send(JSON.stringify(answer.body));
  }
}

/**
 * The override step of a CGI that is not JSON-RPC: matched on its query string (its body is
 * the CGI's to read); a JSON-RPC error is refused for such a CGI when the override is made.
 */
export function overrideStep(cgi: string): RequestHandler {
  return (req, res, next) => {
    if (!deviceOf(res).overrides?.size) return next();
    const query = req.originalUrl.split('?')[1] ?? '';
    const override = takeOverride(res, { cgi, method: undefined, text: query });
    if (!override) return next();
    const { answer } = override;
    if ('delayMs' in answer) {
      void overrideDelay(answer.delayMs).then(() => next());
      return;
    }
    if ('error' in answer) return next();
    answerPlain(res, answer);
  };
}
