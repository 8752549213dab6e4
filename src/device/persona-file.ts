/**
 * A persona file: what one real device answers to discovery, identity, flag and parameter
 * requests, captured by `bwc-emu clone` and served by `--persona FILE`, so the emulator
 * answers as that model. Secrets are never in it (docs/personas.md, "Cloning a device").
 */
import { z } from 'zod';
import { schemaFile } from '../base/json-schema';
import { ApiListEntrySchema } from './api-list-entry';
import { FlagStateSchema } from './feature-flags';
import type { RpcApiSpec } from '../protocol/rpc';
import { type DeviceIdentity, IDENTITY_FIELDS } from './identity';

/** The format word of the first line: a later format changes it, so an old emulator refuses a newer file. */
export const PERSONA_FILE_FORMAT = 'bwc-emu-persona/1';

/** A path prefix such as `/axis-cgi`. */
const PrefixSchema = z.string().regex(/^(\/[A-Za-z0-9._~-]+)+$/, 'must be a path like /axis-cgi');

/** A persona file, declared once; its JSON Schema is `schema/persona.schema.json`. */
export const PersonaFileSchema = z
  .object({
    format: z.literal(PERSONA_FILE_FORMAT),
    description: z.string().optional().describe('Where and when it was captured (not served).'),
    cgiPrefix: PrefixSchema.describe('Path prefix of the CGIs, e.g. /axis-cgi.'),
    wsPrefix: PrefixSchema.describe('Path prefix of the event stream, e.g. /vapix.'),
    namespace: z.string().describe('Word published for the neutral tnsvendor: topic prefix.'),
    realm: z.string().min(1).max(128).describe('Digest realm the device challenges with.'),
    identity: z
      .record(z.string(), z.string())
      .superRefine((identity, ctx) => {
        for (const field of IDENTITY_FIELDS)
          // every field the emulator needs; a device may report more
          if (!Object.hasOwn(identity, field))
            ctx.addIssue({ code: 'custom', message: `identity.${field} is missing` });
      })
      .describe('basicdeviceinfo.cgi getAllProperties, in the order the device lists them.'),
    unrestrictedProperties: z
      .array(z.string())
      .describe('The identity fields getAllUnrestrictedProperties answers without a login, in its order.'),
    flags: z.array(FlagStateSchema).describe('featureflag.cgi listAll, values included.'),
    apiList: z.array(ApiListEntrySchema).describe('apidiscovery.cgi getApiList.'),
    parameters: z
      .record(z.string(), z.string())
      .describe('param.cgi action=list, by path below root. (Brand.ProdNbr), in the order the device lists them.'),
    apiVersions: z
      .record(z.string(), z.array(z.string().regex(/^\d+\.\d+$/)).min(1))
      .optional()
      .describe("Each JSON-RPC API's getSupportedVersions, by API id (an API not named keeps the emulator's)."),
    leftOut: z.array(z.string()).optional().describe('Parameters the capture left out as secrets (not served).'),
  })
  .strict();

/** The versions a device serves of `spec`: the cloned device's, when its file names them. */
export function servedVersions(spec: RpcApiSpec, clone: PersonaFile | undefined): readonly string[] {
  return clone?.apiVersions?.[spec.id] ?? spec.versions;
}

/** `schema/persona.schema.json`, for editors (regenerate: npm run schema). */
export const PERSONA_SCHEMA_FILE = schemaFile('persona.schema.json', PersonaFileSchema);

/** A persona file, loaded and checked. */
export type PersonaFile = z.output<typeof PersonaFileSchema>;

/**
 * Parameter names (any segment) that hold a secret on real devices: passwords, keys, tokens,
 * SNMP communities, certificates' private parts. A capture leaves them out.
 */
const SECRET_PARAMETER =
  /pass(word|phrase)?$|secret|token|psk|community|credential|privatekey|(^|\.)(wep|wpa)?key\d*$/i;

/** Whether param.cgi's `path` names a secret a persona file must not hold. */
export function isSecretParameter(path: string): boolean {
  return path.split('.').some((segment) => SECRET_PARAMETER.test(segment));
}

/** The persona's identity as the device's: the fields the emulator needs are there (the schema checks). */
export function personaIdentity(file: PersonaFile): DeviceIdentity {
  return { ...file.identity } as unknown as DeviceIdentity;
}
