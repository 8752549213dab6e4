/**
 * TLS material for a device: a self-signed certificate made at start, or the user's files. The
 * certificates made here are each a device's own (its name, its addresses, its serial number),
 * all signed with one RSA key made once per process: making a 2048-bit key takes a quarter of a
 * second, which a fleet of a thousand TLS devices would wait four minutes for.
 */
import { generateKeyPair } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { EmulatorError } from './errors';

/** A PEM certificate and its private key. */
export interface TlsMaterial {
  cert: string;
  key: string;
}

/** Makes a certificate valid for `localhost`, the loopback addresses and `host`. */
export function selfSignedCertificate(commonName: string, host: string): Promise<TlsMaterial> {
  return certificateFor(commonName, new Set(['localhost', '127.0.0.1', '::1', host]));
}

/** Makes a certificate valid for `hostname` only: a device answering under a name the client did not ask for. */
export function wrongHostCertificate(hostname: string): Promise<TlsMaterial> {
  return certificateFor(hostname, new Set([hostname]));
}

async function certificateFor(commonName: string, names: ReadonlySet<string>): Promise<TlsMaterial> {
  const altNames = [...names].map((name) =>
    isIP(name) ? { type: 7 as const, ip: name } : { type: 2 as const, value: name },
  );
  try {
    // Loaded here, not at the top: selfsigned and its X.509 stack are about 15 MB of a
    // process's memory, which a server without TLS (most of them) never needs.
    const { generate } = await import('selfsigned');
    const pems = await generate([{ name: 'commonName', value: commonName }], {
      keyPair: await processKey(),
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames },
      ],
    });
    return { cert: pems.cert, key: pems.private };
  } catch (err) {
    throw new EmulatorError('TLS_FAILED', `could not generate a self-signed certificate: ${(err as Error).message}`);
  }
}

/** The process's key pair, as PEM (made on the first certificate). */
let keyPair: Promise<{ privateKey: string; publicKey: string }> | undefined;

function processKey(): Promise<{ privateKey: string; publicKey: string }> {
  keyPair ??= new Promise((resolve, reject) =>
    generateKeyPair(
      'rsa',
      {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      },
      (err, publicKey, privateKey) => (err ? reject(err) : resolve({ privateKey, publicKey })),
    ),
  );
  return keyPair;
}

/** Reads a certificate and key given as files. */
export async function loadCertificate(certFile: string, keyFile: string): Promise<TlsMaterial> {
  try {
    return { cert: await readFile(certFile, 'utf8'), key: await readFile(keyFile, 'utf8') };
  } catch (err) {
    throw new EmulatorError('TLS_FAILED', `cannot read the TLS certificate or key: ${(err as Error).message}`);
  }
}
