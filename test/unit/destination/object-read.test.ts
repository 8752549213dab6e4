/**
 * `readObject` judges a GET's conditions on the version whose data file it opened, not on
 * the record it saw a moment before: an overwrite that lands in between must not be
 * handed out under an `If-Match` that held for the old version. The store is a fake whose
 * lookup still answers the old version while its open answers the new one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { createLogger } from '../../../src/base/log';
import type { DestinationContext } from '../../../src/destination/destination-context';
import { readObject } from '../../../src/destination/routes/object-read';
import type { ObjectRecord } from '../../../src/destination/store/object-store';

const OLD: ObjectRecord = {
  name: 'clip.mkv',
  etag: '11111111111111111111111111111111',
  bytes: 3,
  contentType: 'video/x-matroska',
  lastModified: 1_000_000,
  metadata: {},
  dataFile: 'old.data',
};
const NEW: ObjectRecord = { ...OLD, etag: '22222222222222222222222222222222', bytes: 3, dataFile: 'new.data' };

describe('readObject', () => {
  let dir: string;
  let app: express.Express;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bwc-object-read-'));
    writeFileSync(join(dir, 'new.data'), 'NEW');
    const store = {
      object: () => OLD,
      openObject: async () => ({ record: NEW, file: await open(join(dir, 'new.data'), 'r') }),
    };
    const ctx = { store, log: createLogger({ level: 'silent' }) } as unknown as DestinationContext;
    app = express();
    app.use((req, res) => void readObject(ctx, req, res, { account: 'AUTH_a', container: 'c', object: 'clip.mkv' }));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('an If-Match naming the version that was replaced before the open is 412, not the new body', async () => {
    const res = await request(app).get('/').set('If-Match', OLD.etag);
    expect(res.status).toBe(412);
    expect(res.headers.etag).toBe(NEW.etag);
  });

  it('an If-Match naming the opened version gets its body', async () => {
    const res = await request(app)
      .get('/')
      .set('If-Match', NEW.etag)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect((res.body as Buffer).toString()).toBe('NEW');
  });
});
