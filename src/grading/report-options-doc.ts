/**
 * The parts of docs/grading.md (./grading-doc) about what a report covers and applies: the
 * segments a reset ends, and the thresholds and rules chosen for a run or a report.
 */
import { markdownTable } from '../base/markdown-table';
import { MAX_SEGMENT_NAME } from '../base/segment-name';
import { DEFAULT_SEGMENT_CAPACITY } from './segments';

/** The section on segments. */
export function segmentsDoc(): string[] {
  return [
    "## Segments: every test's findings",
    '',
    'A reset (`await emulator.reset()`, `POST /_emu/reset`) puts the devices back to the start for the',
    'next test and clears the journal. It also ends a **segment** of the report: the journal is graded',
    'as it stands at the reset (a window not over by then is not judged, as in any report), and what',
    'was found is kept. The report covers every segment of the run: `segments` lists each (`index`,',
    '`name`, `from`, `to`, `ended`, its `summary` and the `thresholds` it was judged by), every finding',
    'and expectation carries its `segment` (`index` and `name`), and `summary` counts them all. So',
    "`bwc-emu run --fail-on` fails on what any test's client did, not only the last test's.",
    '',
    "Name the segment after the test, so that the report says which test's client did it:",
    '',
    '- a test suite that resets before each test names the segment the reset begins:',
    '  `reset({ segment: name })`, `POST /_emu/reset?segment=NAME`, or the JSON body `{"segment": "NAME"}`',
    '  (the same name in both is fine; two names are a 400);',
    '- a test that resets after itself names the running segment when it starts: `nameSegment(name)`,',
    '  `PUT /_emu/segment` with `{"name": "NAME"}`.',
    '',
    `A name has 1 to ${MAX_SEGMENT_NAME} characters, none of them a control character or a line break; a bad one is`,
    'refused (`BAD_REQUEST` from the control API, `BAD_OPTION` from `reset()`) and nothing is reset. A',
    'segment without a name is `segment N`: N counts from 1 at the start, and each reset adds one. A',
    'segment without a name in which nothing was journaled is not listed (the time before the first',
    'test of a suite that resets before each test).',
    '',
    '`GET /_emu/report?segments=current` (`report({ segments: "current" })`) covers the running segment',
    "only: what a test reads to check its own client's findings.",
    '',
    '`bwc-emu run --junit` writes a test suite per segment, named as the segment, with a test case per',
    "rule applied and per expectation, the segment's name as their classname.",
    '',
    `The emulator keeps the newest ${DEFAULT_SEGMENT_CAPACITY.toLocaleString('en-US')} ended segments (\`startEmulator({ segmentCapacity })\`). Older ones`,
    'are let go and only counted in `droppedSegments` (how many, and their summary), which `summary`,',
    "the rules' counts and `--fail-on` include. An ended segment is graded at its reset under the",
    "emulator's own thresholds (above). A report that asks for other thresholds grades an ended segment",
    'again from its entries while the emulator keeps them (as many entries as the journal holds, for',
    'every ended segment together, the newest segments first); an older segment keeps its findings as',
    'they were judged, and its `thresholds` in `segments` says which applied. `DELETE /_emu/journal`',
    "forgets the running segment's entries, not the ended segments' findings.",
    '',
  ];
}

/** The section on choosing thresholds and rules. */
export function selectionDoc(): string[] {
  return [
    '## Choosing thresholds and rules',
    '',
    'Every threshold above, and which rules apply, can be set for the whole run and changed for one',
    'report:',
    '',
    ...markdownTable(
      ['where', 'thresholds', 'only these rules', 'every rule but these'],
      [
        [
          '`bwc-emu`, `bwc-emu run`',
          '`--threshold reconnectWithinMs=5000` (repeatable)',
          '`--rules token-reused,auth-failed`',
          '`--skip-rules nonce-not-reused`',
        ],
        [
          '`startEmulator({ grading })`',
          '`grading: { thresholds: { reconnectWithinMs: 5000 } }`',
          "`grading: { rules: ['token-reused'] }`",
          "`grading: { skipRules: ['nonce-not-reused'] }`",
        ],
        [
          '`report(options)`',
          '`report({ thresholds: { reconnectWithinMs: 5000 } })`',
          "`report({ rules: ['token-reused'] })`",
          "`report({ skipRules: ['nonce-not-reused'] })`",
        ],
        [
          '`GET /_emu/report`',
          '`?reconnectWithinMs=5000`',
          '`?rules=token-reused,auth-failed`',
          '`?skipRules=nonce-not-reused`',
        ],
      ],
    ),
    '',
    "A report's thresholds go over the run's; its `rules` or `skipRules` replace the run's choice. Give",
    '`rules` or `skipRules`, not both. An unknown threshold or rule id, or a value that is not a number',
    'or is out of range (durations are 0 or more ms, counts whole numbers of 1 or more), is refused with',
    'a message naming it and the valid ones: the command line exits 2, the control API answers 400',
    '`BAD_OPTION`, `report()` throws `BAD_OPTION`. The report says what it applied: `thresholds`, the',
    '`rules` (each with its findings) and `skippedRules`.',
    '',
  ];
}
