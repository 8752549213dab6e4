/**
 * Everything under `/v1/`: guard clauses in the order Swift applies them (path,
 * token, account, permission), then a refusal of Swift features this destination
 * does not implement, then the account, container or object operation.
 * The path is read from the raw request target, so percent-encoded escapes are
 * judged before anything is decoded into a name.
 */
import type { Request, RequestHandler, Response } from 'express';
import { parseSwiftPath, type SwiftPath } from '../../protocol/swift';
import { unsupportedFeature } from '../../protocol/swift-unsupported';
import type { RequestLocals } from '../../base/request-log';
import type { Caller, DestinationContext } from '../destination-context';
import { accountOperation, containerOperation } from './container-routes';
import { answeredNoRoom } from './no-room';
import { objectOperation } from './object-routes';
import { sendError } from './swift-response';

/** Methods that change something: refused (403) for read-only users. */
const WRITES = new Set(['PUT', 'POST', 'DELETE']);

/** The `/v1/...` handler. */
export function storageRoute(ctx: DestinationContext): RequestHandler {
  return (req, res) => {
    const target = req.originalUrl;
    const q = target.indexOf('?');
    const parsed = parseSwiftPath(q < 0 ? target : target.slice(0, q));
    const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
    if (!parsed.ok) {
      ctx.log.info({ method: req.method, path: target, reason: parsed.error.message }, 'request refused: bad path');
      sendError(req, res, parsed.error.status, parsed.error.message);
      return;
    }
    const path = parsed.value;
    const tokenHeader = req.headers['x-auth-token'] ?? req.headers['x-storage-token'];
    const verdict = ctx.tokens.verify(Array.isArray(tokenHeader) ? tokenHeader[0] : tokenHeader);
    if (!verdict.ok) {
      ctx.log.info({ method: req.method, path: target, reason: verdict.error.code }, 'request refused: token');
      sendError(req, res, 401, verdict.error.message);
      return;
    }
    const owner = verdict.value;
    if (owner.account !== path.account) {
      ctx.log.info({ method: req.method, path: target, user: owner.user }, 'request refused: another account');
      sendError(req, res, 403, `Forbidden: the token is for account ${owner.account}`);
      return;
    }
    if (owner.readOnly && WRITES.has(req.method)) {
      ctx.log.info({ method: req.method, path: target, user: owner.user }, 'request refused: read-only user');
      sendError(req, res, 403, `Forbidden: user ${owner.user} is read-only`);
      return;
    }
    const unsupported = unsupportedFeature({ method: req.method, kind: path.kind, headers: req.headers, query });
    if (unsupported) {
      ctx.log.info(
        { method: req.method, path: target, user: owner.user, feature: unsupported.feature },
        'request refused: feature not implemented',
      );
      sendError(req, res, unsupported.status, unsupported.message);
      return;
    }
    (res.locals as RequestLocals).user = owner.user;
    dispatch(ctx, req, res, path, query, { account: owner.account, user: owner.user }).catch((err: Error) => {
      if (answeredNoRoom(ctx, req, res, err)) return;
      ctx.log.error({ method: req.method, path: target, err: err.message }, 'request failed');
      sendError(req, res, 500, 'Internal Server Error');
    });
  };
}

async function dispatch(
  ctx: DestinationContext,
  req: Request,
  res: Response,
  path: SwiftPath,
  query: URLSearchParams,
  caller: Caller,
): Promise<void> {
  if (path.kind === 'account') return accountOperation(ctx, req, res, query, caller);
  if (path.kind === 'container') return containerOperation(ctx, req, res, path.container, query, caller);
  return objectOperation(ctx, req, res, path.container, path.object, caller);
}
