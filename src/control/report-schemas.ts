/**
 * The zod schema of `GET /_emu/report`: the grader's report as JSON, made from its one
 * declaration in ../base/grading-report-shape (control may not import its sibling grading):
 * rule ids as strings (docs/grading.md lists them), evidence as the journal's entries.
 */
import { z } from 'zod';
import { gradingReportSchemas, ThresholdsSchema } from '../base/grading-report-shape';
import { JournalEntrySchema } from '../base/journal';

export { ThresholdsSchema };

/** The answer of `GET /_emu/report` (and the shape of `report()`). */
export const ReportSchema = gradingReportSchemas(z.string(), JournalEntrySchema).Report;
