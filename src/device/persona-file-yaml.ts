/**
 * A persona file as text: written by `bwc-emu clone`, read by `--persona FILE` and
 * `loadPersonaFile`. Apart from ./persona-file (the schema a device reads), so that a device
 * started through the public face does not load the YAML library.
 */
import { readFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { loadYaml, readFailure, type YamlLoadResult, yamlErrors } from '../base/yaml-load';
import { type PersonaFile, PersonaFileSchema } from './persona-file';

/** A persona file's text: YAML, every value a string as the device answered it. */
export function personaYaml(file: PersonaFile): string {
  return stringify(file, { lineWidth: 0 });
}

/** Loads a persona file's text (YAML or JSON); errors name `file:line:col`. */
export function loadPersona(text: string, file: string): YamlLoadResult<PersonaFile> {
  return loadYaml(text, file, PersonaFileSchema);
}

/** Reads and loads a persona file; synchronous, as the command line resolves its flags. */
export function loadPersonaFile(file: string): YamlLoadResult<PersonaFile> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return yamlErrors([readFailure(file, `cannot read the persona file: ${(error as Error).message}`)]);
  }
  return loadPersona(text, file);
}
