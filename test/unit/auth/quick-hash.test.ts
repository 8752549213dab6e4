import { createHash } from 'node:crypto';
import { hashBytes, hashHex } from '../../../src/auth/quick-hash';

describe('quick-hash', () => {
  it.each(['md5', 'sha256', 'sha512-256'])('%s gives what createHash gives, for UTF-8 text', (name) => {
    for (const text of ['', 'abc', 'root:realm:pass', '\u00e4\u{1f600}']) {
      expect(hashHex(name, text)).toBe(createHash(name).update(text, 'utf8').digest('hex'));
      expect(hashBytes(name, text).equals(createHash(name).update(text, 'utf8').digest())).toBe(true);
    }
  });
});
