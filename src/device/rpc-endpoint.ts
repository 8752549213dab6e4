/**
 * An HTTP endpoint for a JSON-RPC style device API (featureflag.cgi, and the
 * discovery and device info CGIs): POST only, body size limit, envelope
 * validation, authentication when deferred to it, role check, dispatch. Answers 200
 * with JSON for success and for RPC errors alike, like real devices; only HTTP-level
 * problems are non-200.
 */
import type { Request, RequestHandler, Response } from 'express';
import { type Account, type Role, hasRole } from '../auth/accounts';
import type { DeviceAuthLocals } from '../auth/middleware';
import { errorOf, redactUrl } from '../base/log';
import {
  latestVersion,
  parseRpcRequest,
  RpcErrorCode,
  RpcFault,
  rpcFailure,
  rpcSuccess,
  type RpcApiSpec,
  type RpcRequest,
  type RpcResponse,
} from '../protocol/rpc';
import { type DeviceContext, type DeviceRequestLocals, deviceOf, requestLocals } from './device-context';
import { closeAfterBody, readBody } from './http-body';
import { answerPlain, overrideDelay, takeOverride } from './override-step';
import { servedVersions } from './persona-file';

/** What a method handler gets besides the request. */
export interface RpcCallContext {
  account: Account | undefined;
  /** The device the request is for. */
  device: DeviceContext;
}

/**
 * `params[field]` as a non-empty list of names; throws the device's error answers for a
 * missing one (2102, "Required parameter missing") or one that is not such a list (2103).
 */
export function nameListParam(params: RpcRequest['params'], field: string, what: string): string[] {
  const names: unknown = params[field];
  if (names === undefined)
    throw new RpcFault(RpcErrorCode.PARAMETER_MISSING, `Required parameter missing: params.${field}`);
  if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string'))
    throw new RpcFault(
      RpcErrorCode.INVALID_PARAMETER,
      `Invalid parameter: params.${field} must be a non-empty list of ${what}`,
    );
  return names;
}

/** A method implementation: returns `data`, or throws {@link RpcFault} for an error answer. */
export type RpcMethodHandler = (request: RpcRequest, context: RpcCallContext) => unknown;

/** How to build an endpoint. */
export interface RpcEndpointOptions {
  /** Name in logs, e.g. `featureflag.cgi`. */
  name: string;
  spec: RpcApiSpec;
  handlers: Readonly<Record<string, RpcMethodHandler>>;
  /** Minimum role for every method but those in `openMethods`. */
  requiredRole?: Role;
  /** Methods any authenticated user may call (e.g. `getSupportedVersions`). */
  openMethods?: readonly string[];
  /**
   * Methods answered without credentials when the route let the request in unauthenticated
   * (basicdeviceinfo.cgi with `discoveryAuth: 'anonymous'`): every other request, envelope
   * errors included, is authenticated here once the body says its method.
   */
  anonymousMethods?: readonly string[];
}

/**
 * The Express handler (mount it after the auth middleware; with `anonymousMethods`, it may come
 * unauthenticated), one for every device: the device, its body limit and its logger come
 * with each request ({@link deviceOf}).
 */
export function rpcEndpoint(options: RpcEndpointOptions): RequestHandler {
  const { spec: ownSpec, name } = options;
  const unhandled = ownSpec.methods.filter((m) => !options.handlers[m]);
  if (unhandled.length > 0) throw new Error(`${name}: no handler for ${unhandled.join(', ')}`);
  return async (req: Request, res: Response) => {
    const device = deviceOf(res);
    // A cloned device accepts and answers the versions of the device it was cloned from.
    const { clone } = device.options;
    const spec = clone?.apiVersions ? { ...ownSpec, versions: servedVersions(ownSpec, clone) } : ownSpec;
    const { log } = device;
    const locals = requestLocals(res);
    /** The body once read, for the journal of a refused request (see {@link journalCall}). */
    const read: { body?: Buffer } = {};
    const send = (response: RpcResponse): void => {
      const code = response.error?.code;
      journalCall(locals, response, read.body);
      log[code === undefined ? 'debug' : code < 2000 ? 'error' : 'info'](
        { api: name, method: response.method, code, message: response.error?.message },
        code === undefined ? 'rpc ok' : 'rpc error',
      );
      res.status(200).type('application/json').send(JSON.stringify(response));
    };
    // A route that let the request in unauthenticated leaves no scheme (auth `none` sets one).
    const unauthenticated =
      options.anonymousMethods !== undefined && (res.locals as DeviceAuthLocals).scheme === undefined;
    /** Authenticates unless `method` may go without; false once a 401 has been answered. */
    const authenticated = (method: string | undefined): boolean =>
      !unauthenticated ||
      (method !== undefined && options.anonymousMethods?.includes(method) === true) ||
      device.authenticate(req, res);
    const body = await readBody(req, device.options.maxBodyBytes);
    if (!body.ok) {
      if (body.error.code === 'aborted') {
        log.warn({ api: name, url: redactUrl(req.originalUrl) }, 'request aborted by the client');
        return;
      }
      // Whatever the answer, the connection is closed, once the rest of the body has been read.
      closeAfterBody(req, res);
      if (!authenticated(undefined)) return;
      send({
        apiVersion: latestVersion(spec),
        error: {
          code: RpcErrorCode.REQUEST_TOO_LARGE,
          message: body.error.message,
        },
      });
      return;
    }
    read.body = body.value;
    const parsed = parseRpcRequest(body.value, spec);
    const named = parsed.ok ? parsed.value.method : parsed.error.response.method;
    if (!authenticated(named)) return;
    // After authentication: an override never answers a request the device would refuse 401.
    const override = takeOverride(res, { cgi: name, method: named, text: body.value.toString('utf8') });
    if (override) {
      const { answer } = override;
      if ('error' in answer) {
        const { code, message } = answer.error;
        send(
          parsed.ok ? rpcFailure(parsed.value, code, message) : { ...parsed.error.response, error: { code, message } },
        );
        return;
      }
      if (!('delayMs' in answer)) {
        if (named !== undefined) locals.rpcMethod = named.slice(0, MAX_CALL_CHARS);
        answerPlain(res, answer);
        return;
      }
      await overrideDelay(answer.delayMs);
    }
    if (!parsed.ok) {
      send(parsed.error.response);
      return;
    }
    const request = parsed.value;
    const { account } = res.locals as DeviceAuthLocals;
    const open = options.openMethods?.includes(request.method) ?? false;
    if (options.requiredRole && account && !open && !hasRole(account.role, options.requiredRole)) {
      send(
        rpcFailure(
          request,
          RpcErrorCode.AUTHORIZATION_FAILED,
          `Authorization failed: user "${account.name}" (${account.role}) needs the ${options.requiredRole} role`,
        ),
      );
      return;
    }
    try {
      const data = await options.handlers[request.method](request, { account, device });
      send(rpcSuccess(request, data));
    } catch (err) {
      if (err instanceof RpcFault) send(rpcFailure(request, err.code, err.message));
      else {
        log.error({ api: name, method: request.method, err: errorOf(err) }, 'internal error in handler');
        send(rpcFailure(request, RpcErrorCode.INTERNAL_ERROR, 'Internal error'));
      }
    }
  };
}

/** Longest JSON-RPC method name the journal keeps (a client may send any string). */
const MAX_CALL_CHARS = 64;

/**
 * What the journal keeps of a JSON-RPC call: the method the body named, and for an error
 * answer the error and the body (which the journal cuts and redacts); a success keeps no body.
 */
function journalCall(locals: DeviceRequestLocals, response: RpcResponse, body: Buffer | undefined): void {
  if (typeof response.method === 'string') locals.rpcMethod = response.method.slice(0, MAX_CALL_CHARS);
  if (!response.error) return;
  locals.rpcError = response.error;
  locals.refusedBody = body;
}

/** Answers 405 with `Allow` for any other HTTP method. */
export function allowMethods(methods: readonly string[]): RequestHandler {
  return (req, res, next) => {
    if (methods.includes(req.method)) {
      next();
      return;
    }
    deviceOf(res).log.info({ url: redactUrl(req.originalUrl), method: req.method }, 'method not allowed');
    res
      .status(405)
      .set('Allow', methods.join(', '))
      .type('text/plain')
      .send(`Method ${req.method} not allowed; use ${methods.join(' or ')}\n`);
  };
}
