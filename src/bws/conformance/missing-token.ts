/**
 * A request without X-Auth-Token must be answered 401. It is sent with node:http(s)
 * straight to the storage URL: the Swift client always adds the token.
 */
import { request as httpRequest } from 'node:http';
import { type RequestOptions, request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import { RESERVED_CONTAINERS, SYSTEM_OBJECTS } from '../../protocol/body-worn';
import { type ConnectionFile, trustedCertificates } from '../../protocol/connection-file';
import { type Check, type ConformanceFinding } from './finding';
import { statusFinding } from './status-finding';

const CHECK: Check = { id: 'auth.missing-token', title: 'a request without X-Auth-Token is answered 401' };

/** GETs Capabilities.json without a token. */
export async function missingTokenFinding(storageUrl: string, connection: ConnectionFile): Promise<ConformanceFinding> {
  const url = new URL(`${storageUrl}/${RESERVED_CONTAINERS.system}/${SYSTEM_OBJECTS.capabilities}`);
  const answer = await getWithoutToken(url, connection);
  return statusFinding(CHECK, answer, { method: 'GET', path: url.pathname }, [401]);
}

/** The status of a bare GET (body discarded), trusting the connection file's certificates as the client does. */
function getWithoutToken(url: URL, connection: ConnectionFile): Promise<{ status: number } | Error> {
  const trusted = trustedCertificates(connection);
  const options: RequestOptions = { method: 'GET', agent: false, timeout: 30_000 };
  if (trusted.length) options.ca = [...rootCertificates, ...trusted];
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(url, options, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      res.on('error', resolve);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', resolve);
    req.end();
  });
}
