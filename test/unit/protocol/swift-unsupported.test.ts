/**
 * The Swift features the content destination refuses: every entry of the table is
 * asked for by its request and refused (501 naming the feature; an unknown storage
 * policy 400, as Swift answers it), removals (empty values) and everything a body
 * worn system sends while uploading pass untouched.
 */
import type { SwiftPath } from '../../../src/protocol/swift';
import {
  type FeatureRequest,
  UNSUPPORTED_FEATURES,
  unsupportedFeature,
  unsupportedFeatureNames,
} from '../../../src/protocol/swift-unsupported';

/** A request as the storage route hands it over: header names lower-cased as Node does. */
function request(
  method: string,
  kind: SwiftPath['kind'],
  headers: Record<string, string> = {},
  query = '',
): FeatureRequest {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { method, kind, headers: lower, query: new URLSearchParams(query) };
}

/** For each trigger of the table, requests that ask for it. */
const ASKING: Record<string, FeatureRequest[]> = {
  'multipart-manifest=put': [request('PUT', 'object', {}, 'multipart-manifest=put')],
  'X-Static-Large-Object': [
    request('PUT', 'object', { 'X-Static-Large-Object': 'True' }),
    request('POST', 'object', { 'X-Static-Large-Object': 'true' }),
  ],
  'X-Object-Manifest': [
    request('PUT', 'object', { 'X-Object-Manifest': 'segments/clip.mkv/' }),
    request('POST', 'object', { 'X-Object-Manifest': 'segments/clip.mkv/' }),
  ],
  'X-Copy-From': [
    request('PUT', 'object', { 'X-Copy-From': 'c/o.mkv' }),
    request('PUT', 'object', { 'X-Copy-From-Account': 'AUTH_other' }),
  ],
  'the COPY method': [request('COPY', 'object', { Destination: 'c/copy.mkv' })],
  'X-Symlink-Target': [
    request('PUT', 'object', { 'X-Symlink-Target': 'c/o.mkv' }),
    request('PUT', 'object', { 'X-Symlink-Target-Account': 'AUTH_other' }),
    request('PUT', 'object', { 'X-Symlink-Target-Etag': 'abc' }),
  ],
  'X-Delete-After / X-Delete-At': [
    request('PUT', 'object', { 'X-Delete-After': '60' }),
    request('POST', 'object', { 'X-Delete-At': '1900000000' }),
  ],
  'X-Container-Read / X-Container-Write': [
    request('PUT', 'container', { 'X-Container-Read': '.r:*' }),
    request('POST', 'container', { 'X-Container-Write': 'AUTH_other' }),
  ],
  'X-Account-Access-Control': [request('POST', 'account', { 'X-Account-Access-Control': '{"read-only":["x"]}' })],
  'X-Container-Meta-Quota-Bytes / -Count': [
    request('PUT', 'container', { 'X-Container-Meta-Quota-Bytes': '1000' }),
    request('POST', 'container', { 'X-Container-Meta-Quota-Count': '10' }),
  ],
  'X-Account-Meta-Quota-Bytes': [request('POST', 'account', { 'X-Account-Meta-Quota-Bytes': '1000' })],
  'X-Versions-Location / X-History-Location / X-Versions-Enabled': [
    request('PUT', 'container', { 'X-Versions-Location': 'archive' }),
    request('POST', 'container', { 'X-History-Location': 'archive' }),
    request('POST', 'container', { 'X-Versions-Enabled': 'true' }),
  ],
  'X-Container-Sync-To / X-Container-Sync-Key': [
    request('POST', 'container', { 'X-Container-Sync-To': '//realm/cluster/AUTH_x/c' }),
    request('PUT', 'container', { 'X-Container-Sync-Key': 'secret' }),
  ],
  'X-Container-Meta-Access-Control-*': [
    request('POST', 'container', { 'X-Container-Meta-Access-Control-Allow-Origin': '*' }),
    request('PUT', 'container', { 'X-Container-Meta-Access-Control-Max-Age': '60' }),
  ],
  'Temp-URL-Key metadata': [
    request('POST', 'account', { 'X-Account-Meta-Temp-URL-Key': 'k' }),
    request('POST', 'container', { 'X-Container-Meta-Temp-URL-Key': 'k' }),
    request('PUT', 'container', { 'X-Container-Meta-Temp-URL-Key-2': 'k' }),
  ],
  temp_url_sig: [request('GET', 'object', {}, 'temp_url_sig=abc&temp_url_expires=1900000000')],
  'extract-archive / bulk-delete': [
    request('PUT', 'container', {}, 'extract-archive=tar'),
    request('POST', 'account', { 'Content-Type': 'text/plain' }, 'bulk-delete'),
  ],
  'multipart/form-data POST': [
    request('POST', 'object', { 'Content-Type': 'multipart/form-data; boundary=x' }),
    request('POST', 'container', { 'Content-Type': 'Multipart/Form-Data; boundary=x' }),
  ],
  'X-Storage-Policy': [
    request('PUT', 'container', { 'X-Storage-Policy': 'gold' }),
    request('PUT', 'container', { 'X-Storage-Policy': 'Policy-1' }),
  ],
};

describe('UNSUPPORTED_FEATURES', () => {
  it('every entry has a request here that asks for it (a new entry needs a case)', () => {
    expect(Object.keys(ASKING).sort()).toEqual(UNSUPPORTED_FEATURES.map((f) => f.trigger).sort());
  });

  const cases = UNSUPPORTED_FEATURES.flatMap((entry) =>
    (ASKING[entry.trigger] ?? []).map((asking) => [entry.trigger, asking.method, asking.kind, entry, asking] as const),
  );

  it.each(cases)('%s: %s on an %s is refused', (_trigger, _method, _kind, entry, asking) => {
    expect(entry.asks(asking)).toBe(true);
    const refusal = unsupportedFeature(asking);
    expect(refusal?.feature).toBe(entry.feature);
    if (entry.feature === 'storage policies') {
      // Swift's own answer to a policy it does not have.
      expect(refusal?.status).toBe(400);
      expect(refusal?.message).toMatch(/^Invalid X-Storage-Policy "/);
    } else {
      expect(refusal?.status).toBe(501);
      // The feature first: clients show only the start of a body (python-swiftclient: 60 characters).
      expect(refusal?.message.startsWith(entry.feature)).toBe(true);
      expect(refusal?.message).toContain(entry.feature);
      expect(refusal?.message).toContain(entry.trigger);
      if (entry.instead !== undefined) expect(refusal?.message).toContain(entry.instead);
    }
    expect(refusal?.message).not.toContain('\n');
  });

  it('unsupportedFeatureNames lists each feature once, in table order', () => {
    const names = unsupportedFeatureNames();
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual([...new Set(UNSUPPORTED_FEATURES.map((f) => f.feature))]);
    expect(names).toEqual(
      expect.arrayContaining(['static large objects', 'dynamic large objects', 'server-side copies', 'symlinks']),
    );
  });
});

describe('unsupportedFeature: what is not refused', () => {
  /** [method, kind, header]: requests that ask for a feature when the header has a value. */
  const byHeader: [string, SwiftPath['kind'], string][] = [
    ['PUT', 'object', 'X-Static-Large-Object'],
    ['PUT', 'object', 'X-Object-Manifest'],
    ['PUT', 'object', 'X-Copy-From'],
    ['PUT', 'object', 'X-Symlink-Target'],
    ['PUT', 'object', 'X-Delete-After'],
    ['POST', 'object', 'X-Delete-At'],
    ['POST', 'container', 'X-Container-Read'],
    ['POST', 'container', 'X-Container-Write'],
    ['POST', 'account', 'X-Account-Access-Control'],
    ['POST', 'container', 'X-Container-Meta-Quota-Bytes'],
    ['POST', 'account', 'X-Account-Meta-Quota-Bytes'],
    ['POST', 'container', 'X-Versions-Location'],
    ['POST', 'container', 'X-History-Location'],
    ['POST', 'container', 'X-Container-Sync-To'],
    ['POST', 'container', 'X-Container-Meta-Access-Control-Allow-Origin'],
    ['POST', 'account', 'X-Account-Meta-Temp-URL-Key'],
    ['PUT', 'container', 'X-Storage-Policy'],
  ];

  it.each(byHeader)('%s on an %s with an empty %s (a removal) is not refused', (method, kind, header) => {
    expect(unsupportedFeature(request(method, kind, { [header]: 'x' }))).toBeDefined();
    expect(unsupportedFeature(request(method, kind, { [header]: '' }))).toBeUndefined();
    expect(unsupportedFeature(request(method, kind, { [header]: '  ' }))).toBeUndefined();
  });

  it('a removal header (X-Remove-Container-Read, X-Remove-Versions-Location) is not refused', () => {
    expect(unsupportedFeature(request('POST', 'container', { 'X-Remove-Container-Read': 'x' }))).toBeUndefined();
    expect(unsupportedFeature(request('POST', 'container', { 'X-Remove-Versions-Location': 'x' }))).toBeUndefined();
  });

  it.each(['Policy-0', 'policy-0', 'POLICY-0', ' Policy-0 '])(
    'X-Storage-Policy: %j (the one policy) is accepted',
    (p) => {
      expect(unsupportedFeature(request('PUT', 'container', { 'X-Storage-Policy': p }))).toBeUndefined();
    },
  );

  it('feature headers on reads are not refused (Swift ignores them there)', () => {
    expect(unsupportedFeature(request('GET', 'object', { 'X-Delete-At': '1900000000' }))).toBeUndefined();
    expect(unsupportedFeature(request('HEAD', 'container', { 'X-Container-Read': '.r:*' }))).toBeUndefined();
    expect(unsupportedFeature(request('GET', 'object', {}, 'multipart-manifest=get'))).toBeUndefined();
    expect(unsupportedFeature(request('DELETE', 'object', {}, 'multipart-manifest=put'))).toBeUndefined();
  });

  it('the requests of a real body worn upload ask for nothing refused', () => {
    const uploads: FeatureRequest[] = [
      request('GET', 'account', {}, 'format=json'),
      request('GET', 'object', {}),
      request('PUT', 'object', {
        'X-Object-Meta-Name': 'First%20Last',
        'X-Object-Meta-Active': 'True',
        'Content-Type': 'application/octet-stream',
        'Content-Length': '0',
      }),
      request('PUT', 'container', {
        'X-Container-Meta-Userid': 'first_last',
        'X-Container-Meta-Bwcserialnumber': 'BWC0001',
        'X-Container-Meta-Triggerontime': '1795483322',
        'X-Container-Meta-Triggeron': 'Manual',
        'X-Container-Meta-Starttime': '1795483322',
        'X-Container-Meta-Timezone': 'Europe%2FStockholm',
        'X-Container-Meta-Status': 'Transferring',
      }),
      request('PUT', 'object', {
        'X-Object-Meta-Starttime': '1795483322',
        'X-Object-Meta-Starttimeiso': '2026-11-24T01:22:02Z',
        'X-Object-Meta-Stoptime': '1795483352',
        'X-Object-Meta-Stoptimeiso': '2026-11-24T01:22:32Z',
        'X-Object-Meta-Containertype': 'mkv',
        'Content-Type': 'video/x-matroska',
        'Content-Length': '1048576',
        ETag: '644be06dfc54061fd1e67f5ebbabcd58',
        Expect: '100-continue',
      }),
      request('PUT', 'object', {
        'X-Object-Meta-Categoryid': '3',
        'X-Object-Meta-Categoryname': 'Evidence',
        'Content-Type': 'application/octet-stream',
      }),
      request('PUT', 'object', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }),
      request('POST', 'container', {
        'X-Container-Meta-Status': 'Complete',
        'X-Container-Meta-Stoptime': '1795483352',
      }),
      request('HEAD', 'container', {}),
      request('DELETE', 'object', {}),
      request('PUT', 'container', { 'X-Storage-Policy': 'Policy-0', 'X-Container-Meta-Status': 'Transferring' }),
    ];
    for (const upload of uploads) expect(unsupportedFeature(upload)).toBeUndefined();
  });
});
