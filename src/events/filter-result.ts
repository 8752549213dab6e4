/**
 * The result shape shared by the topic and content filter compilers. Filters come
 * from clients over the wire, so a bad one is an ordinary outcome (error 2104 with a
 * message that says where), not an exception.
 */

/** Why a filter expression was rejected, and where. */
export interface FilterSyntaxError {
  /** Names what is wrong and repeats the column, ready to hand back to the client. */
  message: string;
  /** 1-based position in the original string (UTF-16 code units); `length + 1` means "at the end". */
  column: number;
}

/** Either a compiled filter or the reason the expression could not be compiled. */
export type FilterResult<T> = { ok: true; filter: T } | { ok: false; error: FilterSyntaxError };
