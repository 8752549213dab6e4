/**
 * Personas: the device families the emulator can look like, each a set of words that go
 * together (CGI and stream prefixes, the realm's first word, the vendor topic namespace).
 */
import type { SessionTokenFormat } from '../auth/token-forms';
import { NEUTRAL_NAMESPACE } from '../events/topic-filter';

/** What a persona sets together. */
export interface Persona {
  /** One line for `--help` and the docs. */
  readonly description: string;
  readonly cgiPrefix: string;
  readonly wsPrefix: string;
  /** The realm is `<realmWord>_<serial>`. */
  readonly realmWord: string;
  /** The word published for the neutral `tnsvendor:` namespace. */
  readonly namespace: string;
  /** How the device writes its session tokens (`decimal` on real devices). */
  readonly sessionTokenFormat: SessionTokenFormat;
}

/**
 * The device families the emulator can look like. `svc` is the spec's neutral default;
 * `axis` is the widely used family whose clients the reference describes
 * (shared/reference/device-apis.md, "The vendor word").
 */
export const PERSONAS = Object.freeze({
  svc: Object.freeze({
    description: "the spec's neutral words",
    cgiPrefix: '/svc-cgi',
    wsPrefix: '/svc',
    realmWord: 'SVC',
    namespace: NEUTRAL_NAMESPACE,
    sessionTokenFormat: 'decimal',
  }),
  axis: Object.freeze({
    description: 'the device family public clients are written for',
    cgiPrefix: '/axis-cgi',
    wsPrefix: '/vapix',
    realmWord: 'AXIS',
    namespace: 'tnsaxis',
    sessionTokenFormat: 'decimal',
  }),
}) satisfies Readonly<Record<string, Persona>>;

/** A persona's name: `svc` or `axis`. */
export type PersonaName = keyof typeof PERSONAS;

/** Every persona name, for `--help` and messages. */
export const PERSONA_NAMES: readonly PersonaName[] = Object.freeze(Object.keys(PERSONAS) as PersonaName[]);

/** The persona whose words apply when none is named. */
export const DEFAULT_PERSONA: PersonaName = 'svc';

/** `svc` from `/svc-cgi`, `axis` from `/axis-cgi`: the word real realms start with. */
export function vendorWord(cgiPrefix: string): string {
  const first = cgiPrefix.split('/').filter(Boolean)[0] ?? 'svc';
  return first.replace(/-cgi$/i, '') || 'svc';
}
