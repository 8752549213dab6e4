/**
 * Clones a device (real or emulated) into a persona file: asks it what `--persona FILE`
 * serves (API list, identity, feature flags, parameters, realm) over digest or Basic, and
 * leaves the secrets out: no password, token or nonce is asked for or kept, and parameters
 * named like a secret (isSecretParameter) are listed by name in `leftOut`, not copied.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { digestAuthorization } from '../auth/digest-client';
import { isPlainObject, type RpcApiSpec } from '../protocol/rpc';
import { API_DISCOVERY_API } from './apidiscovery-cgi';
import { BASIC_DEVICE_INFO_API } from './basicdeviceinfo-cgi';
import { FEATURE_FLAG_API } from './featureflag-cgi';
import { PERSONAS } from './persona';
import { isSecretParameter, PERSONA_FILE_FORMAT, type PersonaFile, PersonaFileSchema } from './persona-file';

/** The JSON-RPC CGIs whose versions a clone asks, with the API each serves. */
const VERSIONED_APIS: readonly (readonly [string, RpcApiSpec])[] = [
  ['apidiscovery.cgi', API_DISCOVERY_API],
  ['basicdeviceinfo.cgi', BASIC_DEVICE_INFO_API],
  ['featureflag.cgi', FEATURE_FLAG_API],
];

/** What to clone and how to log in. */
export interface CloneOptions {
  /** The device's base URL, `http://HOST:PORT` or `https://...`. */
  url: string;
  user: string;
  password: string;
  /** The CGI prefix; default: the first built-in persona's prefix the device answers under. */
  cgiPrefix?: string;
  /** The event stream prefix; default the built-in persona's with that CGI prefix (a device does not say). */
  wsPrefix?: string;
  /** The vendor topic word; default the built-in persona's with that CGI prefix. */
  namespace?: string;
  /** Accept a self-signed certificate. */
  insecure?: boolean;
  /** Written into the file's `description`; default the URL and the time. */
  description?: string;
}

/** Why a clone failed: the request that failed and what the device answered. */
export class CloneError extends Error {
  /** @param status the HTTP status of the failed request, when it got one */
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CloneError';
  }
}

/** One answer: its status, its challenges and its body. */
interface Answer {
  status: number;
  challenges: string[];
  body: string;
}

/** Clones the device at `options.url` into a persona file (checked against its schema). */
export async function cloneDevice(options: CloneOptions): Promise<PersonaFile> {
  const client = new CloneClient(options);
  const cgiPrefix = options.cgiPrefix?.replace(/\/+$/, '') ?? (await client.findPrefix());
  const family = Object.values(PERSONAS).find((p) => p.cgiPrefix === cgiPrefix);
  const rpc = (cgi: string, method: string) => client.rpc(`${cgiPrefix}/${cgi}`, method);
  const apiList = (await rpc('apidiscovery.cgi', 'getApiList')).apiList;
  const identity = (await rpc('basicdeviceinfo.cgi', 'getAllProperties')).propertyList;
  const unrestricted = (await client.rpc(`${cgiPrefix}/basicdeviceinfo.cgi`, 'getAllUnrestrictedProperties', true))
    .propertyList;
  const flags = (await rpc('featureflag.cgi', 'listAll')).flags;
  const apiVersions: Record<string, unknown> = {};
  for (const [cgi, api] of VERSIONED_APIS) {
    // A device without the method keeps the emulator's versions for that API.
    const versions = await rpc(cgi, 'getSupportedVersions').then(
      (data) => data.apiVersions,
      () => undefined,
    );
    if (versions !== undefined) apiVersions[api.id] = versions;
  }
  const listing = await client.send('GET', `${cgiPrefix}/param.cgi?action=list`);
  if (listing.status !== 200) throw new CloneError(`param.cgi answered HTTP ${listing.status}`, listing.status);
  const { parameters, leftOut } = parseParameters(listing.body);
  const file = {
    format: PERSONA_FILE_FORMAT,
    description: options.description ?? `cloned from ${options.url} at ${new Date().toISOString()}`,
    cgiPrefix,
    wsPrefix: options.wsPrefix ?? family?.wsPrefix ?? PERSONAS.svc.wsPrefix,
    namespace: options.namespace ?? family?.namespace ?? PERSONAS.svc.namespace,
    // A device that challenged nobody (auth none) gets the realm it would have.
    realm:
      client.realm ??
      `${(family ?? PERSONAS.svc).realmWord}_${String((identity as Record<string, unknown> | undefined)?.SerialNumber)}`,
    identity,
    unrestrictedProperties: isPlainObject(unrestricted) ? Object.keys(unrestricted) : [],
    flags,
    apiList,
    parameters,
    apiVersions,
    ...(leftOut.length > 0 ? { leftOut } : {}),
  };
  const parsed = PersonaFileSchema.safeParse(file);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CloneError(`the device's answers do not make a persona: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * param.cgi's `root.Group.Key=value` lines as parameters by path, in the device's order; the
 * secret ones by name apart. Error and comment lines (`# ...`) are skipped.
 */
export function parseParameters(text: string): { parameters: Record<string, string>; leftOut: string[] } {
  const parameters: Record<string, string> = {};
  const leftOut: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const eq = line.indexOf('=');
    if (!line.startsWith('root.') || eq < 0) continue;
    const path = line.slice('root.'.length, eq);
    if (isSecretParameter(path)) leftOut.push(path);
    else parameters[path] = line.slice(eq + 1);
  }
  return { parameters, leftOut };
}

/** Requests to one device, answering its challenges; remembers the realm it challenged with. */
class CloneClient {
  /** The realm of the first challenge seen. */
  realm: string | undefined;
  private readonly base: URL;

  constructor(private readonly options: CloneOptions) {
    this.base = new URL(options.url);
    if (this.base.protocol !== 'http:' && this.base.protocol !== 'https:')
      throw new CloneError(`--url must be http:// or https://, not ${this.base.protocol}`);
  }

  /** The first built-in CGI prefix under which apidiscovery.cgi answers. */
  async findPrefix(): Promise<string> {
    for (const persona of Object.values(PERSONAS)) {
      const answer = await this.send('POST', `${persona.cgiPrefix}/apidiscovery.cgi`, rpcBody('getApiList'));
      if (answer.status !== 404) return persona.cgiPrefix;
    }
    throw new CloneError(
      `no apidiscovery.cgi under ${Object.values(PERSONAS)
        .map((p) => p.cgiPrefix)
        .join(' or ')}; name the prefix with --cgi-prefix`,
    );
  }

  /** A JSON-RPC call's `data`; a device's error answer fails the clone, naming the call. */
  async rpc(path: string, method: string, anonymous = false): Promise<Record<string, unknown>> {
    const answer = await this.send('POST', path, rpcBody(method), anonymous);
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.body);
    } catch {
      throw new CloneError(`${path} ${method} answered HTTP ${answer.status}, not JSON`, answer.status);
    }
    const data = isPlainObject(parsed) ? parsed.data : undefined;
    if (answer.status !== 200 || !isPlainObject(data)) {
      const error = isPlainObject(parsed) && isPlainObject(parsed.error) ? parsed.error : undefined;
      const why = error ? `error ${String(error.code)}: ${String(error.message)}` : 'no data';
      throw new CloneError(`${path} ${method} answered HTTP ${answer.status}, ${why}`, answer.status);
    }
    return data;
  }

  /** Sends once; on a 401 with a challenge (unless `anonymous`), once more with credentials. */
  async send(method: string, path: string, body?: string, anonymous = false): Promise<Answer> {
    const first = await this.exchange(method, path, body);
    if (first.status !== 401) return first;
    this.realm ??= realmOf(first.challenges);
    if (anonymous) return first;
    const authorization = this.authorization(first.challenges, method, path);
    const second = await this.exchange(method, path, body, authorization);
    if (second.status === 401)
      throw new CloneError(
        `the device refused the login for user ${this.options.user} on ${path}: wrong user name or password?`,
        401,
      );
    return second;
  }

  private authorization(challenges: readonly string[], method: string, path: string): string {
    if (challenges.some((c) => /^digest\s/i.test(c)))
      return digestAuthorization(challenges, this.options.user, this.options.password, method, path);
    if (challenges.some((c) => /^basic\s/i.test(c)))
      return `Basic ${Buffer.from(`${this.options.user}:${this.options.password}`).toString('base64')}`;
    throw new CloneError(`${path} asked for credentials with no Digest or Basic challenge`, 401);
  }

  private exchange(method: string, path: string, body?: string, authorization?: string): Promise<Answer> {
    const url = new URL(path, this.base);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (authorization !== undefined) headers.authorization = authorization;
    return new Promise((resolve, reject) => {
      const req = send(url, { method, headers, rejectUnauthorized: !this.options.insecure }, (res) => {
        collect(res).then(
          (text) => resolve({ status: res.statusCode ?? 0, challenges: challengesOf(res), body: text }),
          reject,
        );
      });
      req.on('error', (error) => reject(new CloneError(`${method} ${url.href}: ${error.message}`)));
      req.end(body);
    });
  }
}

function rpcBody(method: string): string {
  return JSON.stringify({ apiVersion: '1.0', context: 'bwc-emu clone', method, params: {} });
}

function collect(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}

/** Every `WWW-Authenticate` value, as sent (one challenge per header on the devices this clones). */
function challengesOf(res: IncomingMessage): string[] {
  const values: string[] = [];
  for (let i = 0; i < res.rawHeaders.length; i += 2)
    if (res.rawHeaders[i].toLowerCase() === 'www-authenticate') values.push(res.rawHeaders[i + 1]);
  return values;
}

function realmOf(challenges: readonly string[]): string | undefined {
  for (const challenge of challenges) {
    const match = /realm="([^"]*)"/i.exec(challenge);
    if (match) return match[1];
  }
  return undefined;
}
