/**
 * The zod schema of `GET /_emu/report`: the grader's report (../grading, made by the emulator
 * layer) as JSON. Declared here, as the journal's is, because control may not import its
 * sibling grading; the compiler checks the two agree (`EmulatorHandle.report` must fit
 * `ControlledEmulator.report`).
 */
import { z } from 'zod';
import { JournalEntrySchema } from './journal-schemas';

const severity = z.enum(['error', 'warning', 'info']);

const FindingSchema = z.object({
  rule: z.string().meta({ description: 'rule id, documented in docs/grading.md' }),
  severity,
  device: z.string(),
  client: z.object({ remote: z.string(), users: z.array(z.string()).readonly() }),
  message: z.string(),
  evidence: z.array(JournalEntrySchema).readonly(),
  moreEvidence: z.number().int().meta({ description: 'evidence entries left out' }),
  fix: z.string(),
});

const ExpectationSchema = z.object({
  device: z.string(),
  name: z.string(),
  that: z.enum(['connected', 'configured']),
  topic: z.string().optional(),
  since: z.string(),
  withinMs: z.number(),
  status: z.enum(['held', 'broken', 'pending']),
  tookMs: z.number().optional(),
  evidence: JournalEntrySchema.optional(),
});

/** The answer of `GET /_emu/report` (and the shape of `report()`). */
export const ReportSchema = z
  .object({
    generatedAt: z.string(),
    journal: z.object({ entries: z.number().int(), dropped: z.number().int() }),
    thresholds: z.object({
      minRetryIntervalMs: z.number(),
      minRetryRun: z.number(),
      reconnectWithinMs: z.number(),
      configureWithinMs: z.number(),
      staleRetryWithinMs: z.number(),
      recoverWithinMs: z.number(),
      stallDetectWithinMs: z.number(),
      maxSessionsPerClient: z.number(),
      pollingWindowMs: z.number(),
      pollingMaxRequests: z.number(),
      minUnusedTokens: z.number(),
      maxRefusedRepeats: z.number(),
    }),
    summary: z.object({
      errors: z.number().int(),
      warnings: z.number().int(),
      infos: z.number().int(),
      expectationsBroken: z.number().int(),
    }),
    rules: z.array(z.object({ id: z.string(), severity, title: z.string(), findings: z.number().int() })).readonly(),
    findings: z.array(FindingSchema).readonly(),
    expectations: z.array(ExpectationSchema).readonly(),
  })
  .meta({ id: 'Report' });
