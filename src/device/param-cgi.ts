/**
 * Legacy `param.cgi?action=list&group=...` (GET, or POST with the arguments as a form
 * body): `root.Group.Key=value` lines as text/plain. Errors are text with HTTP 200, as
 * real devices answer them.
 */
import type { Request, RequestHandler, Response } from 'express';
import { redactUrl } from '../base/log';
import type { DiscoverableApi } from './apidiscovery-cgi';
import { deviceOf } from './device-context';
import { closeAfterBody, readBody } from './http-body';
import { listParameters, paramArguments } from './param-query';
import { parameterTree } from './parameter-tree';

/** param.cgi as API discovery lists it on real devices. */
export const PARAM_CGI_API: DiscoverableApi = { id: 'param-cgi', name: 'Legacy Parameter Handling', versions: ['1.0'] };

/** The handler for `GET` and `POST {cgi-prefix}/param.cgi`. */
export const paramCgi: RequestHandler = async (req, res) => {
  const { options, log } = deviceOf(res);
  const body = req.method === 'POST' ? await formBody(req, res) : '';
  if (body === undefined) return;
  const target = req.originalUrl;
  const query = target.includes('?') ? target.slice(target.indexOf('?') + 1) : '';
  const { action, groups } = paramArguments(query, body);
  if (action !== 'list') {
    log.info({ action, contentType: req.headers['content-type'] }, 'param.cgi: unsupported action');
    reply(res, 200, `# Error: action must be list${action === undefined ? '' : ` (got '${action}')`}\n`);
    return;
  }
  // A cloned device lists the parameters of the device it was cloned from.
  const tree = options.clone
    ? Object.entries(options.clone.parameters).map(([path, value]) => ({ path, value }))
    : parameterTree(options);
  const { lines, unmatched } = listParameters(tree, groups);
  if (unmatched.length > 0) log.info({ groups: unmatched }, 'param.cgi: no such parameter group');
  reply(res, 200, `${lines.join('\n')}\n`);
};

/**
 * The POST body as text, or undefined when it has been answered (too large) or the
 * client went away. Same size limit as the JSON CGIs.
 */
async function formBody(req: Request, res: Response): Promise<string | undefined> {
  const { options, log } = deviceOf(res);
  const body = await readBody(req, options.maxBodyBytes);
  if (body.ok) return body.value.toString('utf8');
  if (body.error.code === 'aborted') {
    log.warn({ url: redactUrl(req.originalUrl) }, 'param.cgi: request aborted by the client');
    return undefined;
  }
  log.info({ limit: options.maxBodyBytes }, 'param.cgi: request body too large');
  // Close the connection rather than parse the rest to reuse it; it is read (and dropped) first.
  closeAfterBody(req, res);
  reply(res, 413, `# Error: ${body.error.message}\n`);
  return undefined;
}

function reply(res: Response, status: number, text: string): void {
  res.status(status).type('text/plain').send(text);
}
