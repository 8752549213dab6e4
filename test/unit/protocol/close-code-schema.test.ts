import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { FAULTS_DOC_FILE } from '../../../src/device/faults/faults-doc';
import { closeCodeSchema, closeReasonSchema } from '../../../src/protocol/close-code-schema';
import { FAULT_CATALOGUE, FAULT_NAMES } from '../../../src/protocol/fault-catalogue';
import { isCloseCode, NOT_A_CLOSE_CODE } from '../../../src/protocol/websocket-close';
import { propertyRuns } from '../../helpers/fast-check-config';

describe('close code and reason schemas', () => {
  it('accept exactly the codes a server may send, refusing the others with one message', () => {
    const schema = closeCodeSchema('code');
    fc.assert(
      fc.property(fc.integer({ min: -10, max: 6000 }), (code) => {
        const parsed = schema.safeParse(code);
        expect(parsed.success).toBe(isCloseCode(code));
        if (!parsed.success) expect(parsed.error.issues.map((i) => i.message)).toEqual([NOT_A_CLOSE_CODE]);
      }),
      propertyRuns(500),
    );
  });

  it('say in their JSON Schema what they accept (what the docs, OpenAPI and the dashboard read)', () => {
    expect(z.toJSONSchema(closeCodeSchema('close code'))).toMatchObject({
      type: 'integer',
      minimum: 1000,
      maximum: 4999,
      description: 'close code: 1000-1003, 1007-1014, 3000-4999',
    });
    expect(z.toJSONSchema(closeReasonSchema())).toMatchObject({ type: 'string', maxLength: 123 });
    expect(closeReasonSchema().safeParse('é'.repeat(62)).success).toBe(false);
  });

  it('no fault parameter is documented as any integer: every range is the one its schema checks', () => {
    const doc = readFileSync(FAULTS_DOC_FILE, 'utf8');
    expect(doc).not.toMatch(/9007199254740991/);
    expect(doc).toMatch(
      /\| `code` \| integer 1000\.\.4999 \| `1011` \| close code \(mode close\): 1000-1003, 1007-1014, 3000-4999 \|/,
    );
    for (const name of FAULT_NAMES) {
      const schema = z.toJSONSchema(FAULT_CATALOGUE[name].params, { io: 'input' }) as {
        properties?: Record<string, { type?: string; minimum?: number; maximum?: number }>;
      };
      for (const [param, p] of Object.entries(schema.properties ?? {})) {
        if (p.type === 'integer')
          expect([name, param, p.minimum !== undefined && p.maximum !== undefined]).toEqual([name, param, true]);
      }
    }
  });
});
