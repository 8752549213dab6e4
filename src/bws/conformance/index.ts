/**
 * `--check`: the body worn system uploads as usual and records every deviation of
 * the destination from the interface (status codes, ETags, auth headers, metadata
 * returned as sent, the 400s of the body worn rules). The 400s are provoked on
 * purpose with three clearly marked probe recordings (user `bwc-emu-check_unknown-user`,
 * camera `CHECKUNKNOWN`, a clip whose StopTime is its StartTime), recorded by a probe
 * user and camera of their own (`bwc-emu-check_user`, `BWCEMUCHECK`) and deleted
 * afterwards. Checks read the collected exchanges; extra requests are made only for
 * what they cannot show (bodies of System objects, HEADs after the upload, a rename,
 * a request without token, the probes' cleanup).
 */
export { CHECK_IDS } from './check-ids';
export type { ConformanceFinding } from './finding';
export { formatFindings } from './format';
export { CHECK_UNKNOWN_SERIAL, CHECK_UNKNOWN_USER, PROBE_CAMERA, PROBE_USER } from './probes';
export { type ConformanceResult, runConformance } from './run';
