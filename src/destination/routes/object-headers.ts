/** The headers every answer about a stored object carries, as Swift sends them. */
import { canonicalHeaderName, metadataHeaders } from '../../protocol/swift';
import type { ObjectRecord } from '../store/object-store';
import { httpDate, swiftTimestamp } from './swift-response';

/** Where the object is. */
export interface ObjectAddress {
  account: string;
  container: string;
  object: string;
}

/** The headers every answer about an object carries. */
export function objectHeaders(record: ObjectRecord): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(record.headers ?? {})) kept[canonicalHeaderName(name)] = value;
  return {
    'Content-Length': String(record.bytes),
    'Content-Type': record.contentType,
    ETag: record.etag,
    'Last-Modified': httpDate(record.lastModified),
    'X-Timestamp': swiftTimestamp(record.lastModified),
    'Accept-Ranges': 'bytes',
    ...kept,
    ...metadataHeaders(new Map(Object.entries(record.metadata)), 'object'),
  };
}
