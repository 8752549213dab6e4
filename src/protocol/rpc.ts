/**
 * The JSON-RPC style envelope shared by every device API (feature flags, discovery,
 * device info, `events:configure`): request validation, version negotiation and the
 * error codes of the spec (part 7B). Pure: knows no sockets and no HTTP.
 */
import { err, ok, type Result } from '../base/result';

/** Error codes common to all device APIs, plus the API-specific ones we use. */
export const RpcErrorCode = {
  INTERNAL_ERROR: 1100,
  VERSION_NOT_SUPPORTED: 2100,
  INVALID_JSON: 2101,
  METHOD_NOT_SUPPORTED: 2102,
  PARAMETER_MISSING: 2103,
  INVALID_PARAMETER: 2104,
  AUTHORIZATION_FAILED: 2105,
  AUTHENTICATION_FAILED: 2106,
  REQUEST_TOO_LARGE: 2107,
  /** Feature flags: "Flag(s) does not exist". API-specific, may collide between APIs. */
  FLAG_NOT_FOUND: 2200,
} as const;

/** One of the numeric codes above. */
export type RpcErrorCodeValue = (typeof RpcErrorCode)[keyof typeof RpcErrorCode];

/** The `error` member of a failure response. */
export interface RpcError {
  code: number;
  message: string;
}

/** A validated request: `apiVersion` already normalised to `<major>.<minor>`. */
export interface RpcRequest {
  apiVersion: string;
  context?: string;
  method: string;
  params: Readonly<Record<string, unknown>>;
}

/** A response envelope: exactly one of `data` and `error` is present. */
export interface RpcResponse {
  apiVersion: string;
  context?: string;
  method?: string;
  data?: unknown;
  error?: RpcError;
}

/** What an API accepts: its versions and its methods; also its entry in API discovery. */
export interface RpcApiSpec {
  /** Discovery id, e.g. `feature-flag`. */
  id: string;
  /** Human name in discovery, e.g. `Feature Flag Service`. */
  name: string;
  /** Supported versions, `<major>.<minor>`, newest last. */
  versions: readonly string[];
  /** Method names the API serves. */
  methods: readonly string[];
  /** Methods that are sent without `apiVersion` (e.g. `getSupportedVersions`). */
  versionlessMethods?: readonly string[];
}

/** Why a request was refused: its RPC error code and message, and the whole `response` to answer with. */
export interface RpcParseError extends RpcError {
  readonly response: RpcResponse;
  /** The request's `params` when it was a JSON object with an object there (for a journal of refusals). */
  readonly params?: Readonly<Record<string, unknown>>;
}

/** Result of {@link parseRpcRequest}: a request to dispatch, or the error to answer. */
export type RpcParseResult = Result<RpcRequest, RpcParseError>;

/** An error a handler throws (or returns) to answer with a specific code. */
export class RpcFault extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcFault';
  }
}

/**
 * Parses and validates a request body against an API spec.
 * Invalid JSON is 2101, a missing member 2103, a wrongly typed one 2104, an
 * unknown method 2102 and an unsupported version 2100; `context` is echoed when it
 * is a string, whatever else is wrong.
 */
export function parseRpcRequest(body: string | Buffer, spec: RpcApiSpec): RpcParseResult {
  const fallbackVersion = latestVersion(spec);
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch (error) {
    return fail(
      fallbackVersion,
      undefined,
      undefined,
      RpcErrorCode.INVALID_JSON,
      `Invalid JSON: ${jsonErrorReason(error)}`,
    );
  }
  if (!isPlainObject(parsed)) {
    return fail(
      fallbackVersion,
      undefined,
      undefined,
      RpcErrorCode.INVALID_JSON,
      'Invalid JSON: the request must be a JSON object',
    );
  }
  const checked = checkRequest(parsed, spec, fallbackVersion);
  if (checked.ok || !isPlainObject(parsed.params)) return checked;
  return err({ ...checked.error, params: parsed.params });
}

/**
 * Why `JSON.parse` failed, without the text around the error that V8 quotes (`Unexpected token
 * 'h', ..."password": hunter2"... is not valid JSON`): the answer, the log and the journal
 * repeat this, and a client's password could be in it.
 */
function jsonErrorReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const reason = message.replace(/(?:, )?(?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '').trim();
  return reason === '' ? 'not valid JSON' : reason;
}

/** Validates a request object's members (see {@link parseRpcRequest}). */
function checkRequest(parsed: Record<string, unknown>, spec: RpcApiSpec, fallbackVersion: string): RpcParseResult {
  const context = typeof parsed.context === 'string' ? parsed.context : undefined;
  const rawVersion = parsed.apiVersion;
  const echoVersion = typeof rawVersion === 'string' ? rawVersion : fallbackVersion;
  const rawMethod = parsed.method;
  const method = typeof rawMethod === 'string' ? rawMethod : undefined;

  if (parsed.context !== undefined && context === undefined) {
    return fail(
      echoVersion,
      undefined,
      method,
      RpcErrorCode.INVALID_PARAMETER,
      'Invalid parameter: context must be a string',
    );
  }
  if (rawMethod === undefined) {
    return fail(echoVersion, context, undefined, RpcErrorCode.PARAMETER_MISSING, 'Required parameter missing: method');
  }
  if (method === undefined) {
    return fail(
      echoVersion,
      context,
      undefined,
      RpcErrorCode.INVALID_PARAMETER,
      'Invalid parameter: method must be a string',
    );
  }
  if (!spec.methods.includes(method)) {
    return fail(echoVersion, context, method, RpcErrorCode.METHOD_NOT_SUPPORTED, `Method not supported: ${method}`);
  }
  const versionless = spec.versionlessMethods?.includes(method) ?? false;
  let apiVersion = fallbackVersion;
  if (rawVersion === undefined) {
    if (!versionless) {
      return fail(
        fallbackVersion,
        context,
        method,
        RpcErrorCode.PARAMETER_MISSING,
        'Required parameter missing: apiVersion',
      );
    }
  } else {
    if (typeof rawVersion !== 'string') {
      return fail(
        fallbackVersion,
        context,
        method,
        RpcErrorCode.INVALID_PARAMETER,
        'Invalid parameter: apiVersion must be a string like "1.0"',
      );
    }
    const normalised = normaliseVersion(rawVersion);
    if (normalised === undefined) {
      return fail(
        rawVersion,
        context,
        method,
        RpcErrorCode.INVALID_PARAMETER,
        `Invalid parameter: apiVersion "${rawVersion}" is not <major>.<minor>`,
      );
    }
    if (!isVersionSupported(normalised, spec.versions)) {
      return fail(
        rawVersion,
        context,
        method,
        RpcErrorCode.VERSION_NOT_SUPPORTED,
        `API version not supported: ${rawVersion} (supported: ${spec.versions.join(', ')})`,
      );
    }
    apiVersion = normalised;
  }
  const rawParams = parsed.params;
  if (rawParams !== undefined && !isPlainObject(rawParams)) {
    return fail(
      apiVersion,
      context,
      method,
      RpcErrorCode.INVALID_PARAMETER,
      'Invalid parameter: params must be an object',
    );
  }
  return ok({ apiVersion, context, method, params: rawParams ?? {} });
}

/** Builds a success response echoing the request's version, context and method. */
export function rpcSuccess(request: RpcRequest, data: unknown): RpcResponse {
  return withContext({ apiVersion: request.apiVersion, method: request.method, data }, request.context);
}

/** Builds a failure response echoing the request's version, context and method. */
export function rpcFailure(
  request: Pick<RpcRequest, 'apiVersion' | 'context' | 'method'>,
  code: number,
  message: string,
): RpcResponse {
  return withContext(
    { apiVersion: request.apiVersion, method: request.method, error: { code, message } },
    request.context,
  );
}

/**
 * Normalises `"1"` to `"1.0"` (one real client sends a bare major) and checks the
 * `<major>.<minor>` shape; returns undefined for anything else.
 */
export function normaliseVersion(version: string): string | undefined {
  const match = /^(\d{1,4})(?:\.(\d{1,4}))?$/.exec(version);
  if (!match) return undefined;
  return `${Number(match[1])}.${Number(match[2] ?? '0')}`;
}

/** A version is served when its major is served with an equal or newer minor. */
export function isVersionSupported(normalised: string, supported: readonly string[]): boolean {
  const [major, minor] = normalised.split('.').map(Number);
  return supported.some((v) => {
    const [sMajor, sMinor] = v.split('.').map(Number);
    return sMajor === major && minor <= sMinor;
  });
}

/** The newest version an API serves, used where a request names none. */
export function latestVersion(spec: RpcApiSpec): string {
  return spec.versions[spec.versions.length - 1] ?? '1.0';
}

/** True for `{...}` values (not arrays, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(
  apiVersion: string,
  context: string | undefined,
  method: string | undefined,
  code: number,
  message: string,
): RpcParseResult {
  const response: RpcResponse = { apiVersion };
  if (context !== undefined) response.context = context;
  if (method !== undefined) response.method = method;
  response.error = { code, message };
  return err({ code, message, response });
}

function withContext(response: RpcResponse, context: string | undefined): RpcResponse {
  if (context === undefined) return response;
  // Keep the field order of real devices: apiVersion, context, method, data|error.
  const { apiVersion, ...rest } = response;
  return { apiVersion, context, ...rest };
}
