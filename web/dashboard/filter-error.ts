/**
 * Where a refused filter went wrong. The device's `events:configure` error names the filter
 * and the column only in its message: `Invalid parameter: eventFilterList[0].topicFilter:
 * unexpected '/' at column 6: empty topic name`.
 */

/** A configure error, with the filter and the column it points at when the message names them. */
export interface FilterError {
  code: number;
  /** The whole message, as the device sent it. */
  message: string;
  /** What the message says is wrong, without the parameter path. */
  detail: string;
  field: 'topicFilter' | 'contentFilter' | undefined;
  /** 1-based column in the filter's text; undefined when the message has none. */
  column: number | undefined;
}

/** Reads `message` (of error `code`) into a {@link FilterError}. */
export function filterErrorOf(code: number, message: string): FilterError {
  const located = /\.(topicFilter|contentFilter): (.*)$/s.exec(message);
  const field = located?.[1] as FilterError['field'];
  const detail = located?.[2] ?? message;
  const column = /\bcolumn (\d+)/.exec(detail)?.[1];
  return { code, message, detail, field, column: column === undefined ? undefined : Number(column) };
}

/** Characters shown around the column: a long filter is cut so that the caret stays in view. */
const BEFORE = 24;
const AFTER = 12;

/**
 * The part of `text` around `column` (1-based) and a caret line under that column, `…` where
 * text was cut: `…[@Name='state' and @Value='1')` over `                            ^`.
 */
export function caretExcerpt(text: string, column: number): string {
  const at = Math.max(0, Math.min(column - 1, text.length));
  const start = Math.max(0, at - BEFORE);
  const end = Math.min(text.length, at + AFTER);
  const head = start > 0 ? '…' : '';
  const line = `${head}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
  return `${line}\n${' '.repeat(head.length + at - start)}^`;
}
