/**
 * The third-party tools the interop and browser tests drive (curl, Python modules, rclone,
 * the swift CLI, Chromium) are optional on a developer's machine: without one, its tests are
 * skipped with a line naming the install command. Where the environment says the tools are
 * there (`BWC_EMU_REQUIRE_TOOLS=1`, exported by `.ci/run`), a missing one fails instead, so a
 * failed install is never a silently green run in CI.
 */

/** True when the environment requires the tests' third-party tools. */
const TOOLS_REQUIRED = process.env.BWC_EMU_REQUIRE_TOOLS === '1';

/**
 * Says that a tool is missing (`message` names it and how to install it): throws when the
 * tools are required, else writes the skip line and returns, for the caller to skip its tests.
 * The line goes straight to stderr: Jest drops the console output of a file whose tests are
 * all skipped when it runs several files, as `npm test` does.
 */
export function toolMissing(message: string): void {
  if (TOOLS_REQUIRED) throw new Error(`${message} (required here: BWC_EMU_REQUIRE_TOOLS=1)`);
  process.stderr.write(`${message}; BWC_EMU_REQUIRE_TOOLS=1 makes these tests fail instead\n`);
}
