/**
 * `GET /info` (Swift's capabilities document, listing what this destination actually
 * serves, and whether it takes writes now) and `GET /healthcheck` (`OK`), both without
 * credentials, as in Swift. `swift capabilities` reads the first; load balancers poll the
 * second, which stays 200 while the destination is read-only on a full disk: it still
 * serves reads, and a restart would not make room.
 */
import type { RequestHandler } from 'express';
import { packageVersion } from '../../base/package-version';
import { RANGE_LIMITS } from '../../protocol/http-range';
import { SWIFT_LIMITS } from '../../protocol/swift';
import { MAX_HEADER_LINE_BYTES, MAX_HEADER_LINES } from '../../protocol/swift-request-limits';
import { unsupportedFeatureNames } from '../../protocol/swift-unsupported';
import type { DestinationContext } from '../destination-context';
import type { StorageState } from '../store/disk-room';
import { sendBody, sendError } from './swift-response';

/** The capabilities document: Swift's keys for what is served, and a `bwc_emu` section naming what is refused. */
export function capabilities(maxObjectBytes: number): object {
  return {
    swift: {
      version: `bwc-emu ${packageVersion()}`,
      // What this destination takes (--max-object-size), not Swift's default.
      max_file_size: maxObjectBytes,
      max_meta_name_length: SWIFT_LIMITS.maxMetaNameBytes,
      max_meta_value_length: SWIFT_LIMITS.maxMetaValueBytes,
      max_meta_count: SWIFT_LIMITS.maxMetaCount,
      max_meta_overall_size: SWIFT_LIMITS.maxMetaOverallBytes,
      max_header_size: MAX_HEADER_LINE_BYTES,
      // Beyond Swift's document: the header lines served (more are 431).
      max_header_count: MAX_HEADER_LINES,
      max_object_name_length: SWIFT_LIMITS.maxObjectNameBytes,
      max_container_name_length: SWIFT_LIMITS.maxContainerNameBytes,
      container_listing_limit: SWIFT_LIMITS.containerListingLimit,
      account_listing_limit: SWIFT_LIMITS.containerListingLimit,
      extra_header_count: 0,
      policies: [{ name: 'Policy-0', default: true }],
      allow_account_management: false,
      account_autocreate: false,
      max_ranges: RANGE_LIMITS.maxRanges,
    },
    tempauth: { account_acls: false },
    bwc_emu: {
      version: packageVersion(),
      role: 'reference content destination for body worn systems',
      not_implemented: unsupportedFeatureNames(),
    },
  };
}

/** `/info`: GET and HEAD; `bwc_emu.storage` says whether writes are taken now. */
export function infoRoute(ctx: DestinationContext): RequestHandler {
  const document = capabilities(ctx.options.maxObjectBytes) as { bwc_emu: object };
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendError(req, res, 405, `Method ${req.method} is not allowed on /info`, { Allow: 'GET, HEAD' });
    const storage = storageDocument(ctx.store.room.state);
    const body = JSON.stringify({ ...document, bwc_emu: { ...document.bwc_emu, storage } });
    sendBody(req, res, 200, body, 'application/json; charset=UTF-8');
  };
}

/** The storage state for `/info`: `{ mode: 'read-write' }`, or read-only with the reason and since when (ISO 8601). */
export function storageDocument(state: StorageState): object {
  if (state.mode === 'read-write') return { mode: state.mode };
  return { mode: state.mode, reason: state.reason, message: state.message, since: new Date(state.since).toISOString() };
}

/** `/healthcheck`: GET and HEAD answer `OK` while the server serves requests. */
export function healthcheckRoute(): RequestHandler {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendError(req, res, 405, `Method ${req.method} is not allowed on /healthcheck`, { Allow: 'GET, HEAD' });
    sendBody(req, res, 200, 'OK', 'text/plain');
  };
}
