/**
 * The auth answer, read from the run's own exchanges: 2xx with X-Auth-Token and a
 * usable X-Storage-Url; X-Storage-Token and X-Auth-Token-Expires are advisory.
 */
import type { Exchange } from '../swift-client';
import { answered, is2xx, requestHeader, responseHeader } from './exchanges';
import { type Check, fail, type ConformanceFinding, pass, type SeenRequest } from './finding';

const STATUS: Check = { id: 'auth.status', title: 'auth answered 2xx' };
const TOKEN: Check = { id: 'auth.token', title: 'auth answer carries X-Auth-Token' };
const STORAGE_URL: Check = { id: 'auth.storage-url', title: 'auth answer carries a usable X-Storage-Url' };
const STORAGE_TOKEN: Check = {
  id: 'auth.storage-token',
  title: 'auth answer carries X-Storage-Token equal to X-Auth-Token',
  advisory: true,
};
const TOKEN_EXPIRES: Check = {
  id: 'auth.token-expires',
  title: 'auth answer carries X-Auth-Token-Expires (seconds)',
  advisory: true,
};

/** The auth findings; only `auth.status` when there was no usable answer to read headers from. */
export function authFindings(exchanges: Exchange[]): ConformanceFinding[] {
  const isAuth = (e: Exchange): boolean => requestHeader(e, 'x-auth-user') !== undefined;
  const auth = exchanges.find((e) => isAuth(e) && answered(e));
  if (!auth) return [noAuthAnswer(exchanges.find(isAuth))];
  const request = { method: auth.method, path: auth.path, status: auth.status };
  const status = auth.status ?? 0;
  if (!is2xx(status)) return [fail(STATUS, `answered ${status}`, request)];
  const token = responseHeader(auth, 'x-auth-token');
  return [
    pass(STATUS, `answered ${status}`, request),
    tokenFinding(token, request),
    storageUrlFinding(responseHeader(auth, 'x-storage-url'), request),
    storageTokenFinding(responseHeader(auth, 'x-storage-token'), token),
    expiresFinding(responseHeader(auth, 'x-auth-token-expires')),
  ];
}

/** Why there is no auth answer: none was asked for, or the last try got no answer. */
function noAuthAnswer(tried: Exchange | undefined): ConformanceFinding {
  if (!tried) return fail(STATUS, 'no auth request was made');
  return fail(STATUS, `no answer: ${tried.error ?? `status ${tried.status}`}`);
}

/** Without X-Auth-Token no later request can be authorized. */
function tokenFinding(token: string | undefined, request: SeenRequest): ConformanceFinding {
  if (!token) return fail(TOKEN, 'no X-Auth-Token header', request);
  return pass(TOKEN);
}

/** Every later request goes to X-Storage-Url, so it must be an absolute http(s) URL. */
function storageUrlFinding(storage: string | undefined, request: SeenRequest): ConformanceFinding {
  if (storage === undefined) return fail(STORAGE_URL, 'no X-Storage-Url header', request);
  if (!/^https?:\/\//i.test(storage) || !URL.canParse(storage))
    return fail(STORAGE_URL, `X-Storage-Url "${storage}" is not an http(s) URL`, request);
  return pass(STORAGE_URL, storage);
}

/** Older Swift clients read X-Storage-Token instead of X-Auth-Token. */
function storageTokenFinding(storageToken: string | undefined, token: string | undefined): ConformanceFinding {
  if (storageToken === undefined) return fail(STORAGE_TOKEN, 'no X-Storage-Token header');
  if (storageToken !== token) return fail(STORAGE_TOKEN, 'X-Storage-Token differs from X-Auth-Token');
  return pass(STORAGE_TOKEN);
}

/** Clients renew the token before X-Auth-Token-Expires (whole seconds) runs out. */
function expiresFinding(expires: string | undefined): ConformanceFinding {
  if (expires === undefined) return fail(TOKEN_EXPIRES, 'no X-Auth-Token-Expires header');
  if (!/^\d+$/.test(expires.trim())) return fail(TOKEN_EXPIRES, `"${expires}" is not whole seconds`);
  return pass(TOKEN_EXPIRES);
}
