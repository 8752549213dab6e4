/** The routes of the answer overrides: which are in force, make one, remove one or every one. */
import { z } from 'zod';
import { OverrideSpecSchema } from '../protocol/answer-override-spec';
import { refusalDocs } from './control-codes';
import { overridesAnswer } from './feed-snapshots';
import { OverridesSchema } from './override-schemas';
import { defineRoute } from './route';

/** The routes of this file. */
export const OVERRIDE_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/overrides',
    summary: 'The answer overrides in force',
    response: OverridesSchema,
    handler: ({ emulator, device }) => overridesAnswer(emulator, device),
  }),
  defineRoute({
    method: 'post',
    path: '/overrides',
    summary: 'Make the device answer a CGI with a JSON-RPC error, an HTTP status, a JSON body or a delay',
    description:
      'After authentication (a request the device refuses 401 stays refused), the first override whose ' +
      '`cgi`, `method` and `match` fit the request answers it, `times` times or until cleared; the ' +
      "journal's http entry is the answer given, with `override` naming it. See docs/control-api.md.",
    body: OverrideSpecSchema,
    response: OverridesSchema,
    refusals: refusalDocs('BAD_OVERRIDE'),
    handler: ({ emulator, device, body }) => ({ overrides: emulator.override(body, { device }) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/overrides',
    summary: 'Remove an answer override: the one named, or every one',
    query: z.strictObject({ id: z.string().min(1).optional() }),
    response: z.object({ cleared: z.array(z.string()) }),
    handler: ({ emulator, device, query }) => ({ cleared: emulator.clearOverrides(query.id, { device }) }),
  }),
];
