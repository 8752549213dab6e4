/**
 * Swift features the content destination does not implement, and how a request asks
 * for one. Stock Swift honours these headers and query parameters; a server that
 * stored such a request as a plain one would answer 2xx and lose data (a large object
 * manifest stored as a 0-byte object, a copy with no body, an expiry never applied).
 * So each is refused with a status and a one-line reason naming the feature. Pure.
 */
import type { SwiftPath } from './swift';

/** One unimplemented feature: its name, what asks for it, and on which requests. */
export interface UnsupportedFeature {
  /** Human name, used in the refusal and in `/info`. */
  readonly feature: string;
  /** The header or query parameter that asks for it, as the refusal names it. */
  readonly trigger: string;
  /** What the client can do instead, when there is something. */
  readonly instead?: string;
  /** Answer status and reason when Swift itself refuses such a request otherwise (default: 501 naming the feature). */
  readonly refusal?: (request: FeatureRequest) => { status: number; message: string };
  /** Whether a request asks for it. */
  readonly asks: (request: FeatureRequest) => boolean;
}

/** What the table looks at: the method, what the path names, headers (lower-case names) and query. */
export interface FeatureRequest {
  readonly method: string;
  readonly kind: SwiftPath['kind'];
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly query: URLSearchParams;
}

/** A refusal: the status and the one-line body. */
export interface FeatureRefusal {
  readonly status: number;
  readonly feature: string;
  readonly message: string;
}

const WRITES = new Set(['PUT', 'POST']);

/** A header sent with a non-empty value (an empty one removes the setting, which is already the case here). */
function has(request: FeatureRequest, name: string): boolean {
  const value = request.headers[name];
  const text = Array.isArray(value) ? value.join('') : value;
  return text !== undefined && text.trim() !== '';
}

function policyOf(request: FeatureRequest): string {
  return String(request.headers['x-storage-policy'] ?? '').trim();
}

function on(kind: SwiftPath['kind'], methods: ReadonlySet<string>, ...headers: string[]) {
  return (r: FeatureRequest): boolean => r.kind === kind && methods.has(r.method) && headers.some((h) => has(r, h));
}

/** Every feature refused, in the order they are checked. */
export const UNSUPPORTED_FEATURES: readonly UnsupportedFeature[] = [
  {
    feature: 'static large objects',
    trigger: 'multipart-manifest=put',
    instead: 'upload the object in one PUT (up to 5 GiB)',
    asks: (r) => r.kind === 'object' && r.method === 'PUT' && r.query.get('multipart-manifest') === 'put',
  },
  {
    feature: 'static large objects',
    trigger: 'X-Static-Large-Object',
    asks: on('object', WRITES, 'x-static-large-object'),
  },
  {
    feature: 'dynamic large objects',
    trigger: 'X-Object-Manifest',
    instead: 'upload the object in one PUT (up to 5 GiB)',
    asks: on('object', WRITES, 'x-object-manifest'),
  },
  {
    feature: 'server-side copies',
    trigger: 'X-Copy-From',
    instead: 'download the object and upload it again',
    asks: on('object', new Set(['PUT']), 'x-copy-from', 'x-copy-from-account'),
  },
  {
    feature: 'server-side copies',
    trigger: 'the COPY method',
    instead: 'download the object and upload it again',
    asks: (r) => r.method === 'COPY',
  },
  {
    feature: 'symlinks',
    trigger: 'X-Symlink-Target',
    asks: on('object', new Set(['PUT']), 'x-symlink-target', 'x-symlink-target-account', 'x-symlink-target-etag'),
  },
  {
    feature: 'object expiry',
    trigger: 'X-Delete-After / X-Delete-At',
    instead: 'delete the object when it is due',
    asks: on('object', WRITES, 'x-delete-after', 'x-delete-at'),
  },
  {
    feature: 'access control lists',
    trigger: 'X-Container-Read / X-Container-Write',
    asks: on('container', WRITES, 'x-container-read', 'x-container-write'),
  },
  {
    feature: 'access control lists',
    trigger: 'X-Account-Access-Control',
    asks: on('account', WRITES, 'x-account-access-control'),
  },
  {
    feature: 'quotas',
    trigger: 'X-Container-Meta-Quota-Bytes / -Count',
    asks: on('container', WRITES, 'x-container-meta-quota-bytes', 'x-container-meta-quota-count'),
  },
  {
    feature: 'quotas',
    trigger: 'X-Account-Meta-Quota-Bytes',
    asks: on('account', WRITES, 'x-account-meta-quota-bytes'),
  },
  {
    feature: 'object versioning',
    trigger: 'X-Versions-Location / X-History-Location / X-Versions-Enabled',
    asks: on('container', WRITES, 'x-versions-location', 'x-history-location', 'x-versions-enabled'),
  },
  {
    feature: 'container sync',
    trigger: 'X-Container-Sync-To / X-Container-Sync-Key',
    asks: on('container', WRITES, 'x-container-sync-to', 'x-container-sync-key'),
  },
  {
    feature: 'cross-origin resource sharing',
    trigger: 'X-Container-Meta-Access-Control-*',
    asks: (r) =>
      r.kind === 'container' &&
      WRITES.has(r.method) &&
      Object.keys(r.headers).some((h) => h.startsWith('x-container-meta-access-control-') && has(r, h)),
  },
  {
    feature: 'temporary URLs',
    trigger: 'Temp-URL-Key metadata',
    asks: (r) =>
      WRITES.has(r.method) &&
      ['x-container-meta-temp-url-key', 'x-container-meta-temp-url-key-2', 'x-account-meta-temp-url-key'].some((h) =>
        has(r, h),
      ),
  },
  {
    feature: 'temporary URLs',
    trigger: 'temp_url_sig',
    asks: (r) => r.query.has('temp_url_sig'),
  },
  {
    feature: 'bulk operations',
    trigger: 'extract-archive / bulk-delete',
    asks: (r) => r.query.has('extract-archive') || r.query.has('bulk-delete'),
  },
  {
    feature: 'form POST uploads',
    trigger: 'multipart/form-data POST',
    asks: (r) => r.method === 'POST' && /^\s*multipart\/form-data/i.test(String(r.headers['content-type'] ?? '')),
  },
  {
    feature: 'storage policies',
    trigger: 'X-Storage-Policy',
    // Swift's own answer to a policy it does not have.
    refusal: (r) => ({ status: 400, message: `Invalid X-Storage-Policy ${JSON.stringify(policyOf(r))}` }),
    asks: (r) =>
      r.kind === 'container' &&
      r.method === 'PUT' &&
      has(r, 'x-storage-policy') &&
      policyOf(r).toLowerCase() !== 'policy-0',
  },
];

/** The refusal for a request that asks for an unimplemented feature, or undefined. */
export function unsupportedFeature(request: FeatureRequest): FeatureRefusal | undefined {
  const found = UNSUPPORTED_FEATURES.find((f) => f.asks(request));
  if (!found) return undefined;
  if (found.refusal) return { feature: found.feature, ...found.refusal(request) };
  const message =
    // Feature first: clients show only the start of a body (python-swiftclient: 60 characters).
    `${found.feature} (${found.trigger}): not implemented by this content destination` +
    (found.instead ? `; ${found.instead}` : '');
  return { status: 501, feature: found.feature, message };
}

/** The names of the features refused, once each, for `/info`. */
export function unsupportedFeatureNames(): string[] {
  return [...new Set(UNSUPPORTED_FEATURES.map((f) => f.feature))];
}
