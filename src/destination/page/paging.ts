/**
 * Paging of the recordings page: `?page=N` (1 first), a fixed number of rows a page.
 * Pure; every bad value is an error with a message the page shows.
 */
import { type ErrorInfo, fail, ok, type Result } from '../../base/result';

/** Rows on one page. */
export const PAGE_SIZE = 50;

/** The highest page number accepted in a query (well beyond any real listing). */
const MAX_PAGE = 1_000_000;

/** One page of a list. */
export interface Page<T> {
  items: T[];
  /** 1 for the first page. */
  page: number;
  /** Pages in all (1 for an empty list). */
  pages: number;
  total: number;
  /** 1-based position of the first item on this page (0 when there is none). */
  from: number;
  /** 1-based position of the last item on this page (0 when there is none). */
  to: number;
}

/** Why a page cannot be shown: a malformed `?page=` (400) or one past the last (404). */
export type PageError = ErrorInfo<'BAD_PAGE' | 'NO_SUCH_PAGE'>;

/** Reads the values of a page parameter (none: page 1). */
export function parsePageParam(values: readonly string[], name: string): Result<number, PageError> {
  if (values.length === 0) return ok(1);
  if (values.length > 1) return fail('BAD_PAGE', `give ?${name}= once, not ${values.length} times`);
  const text = values[0];
  if (!/^[1-9]\d{0,6}$/.test(text) || Number(text) > MAX_PAGE)
    return fail(
      'BAD_PAGE',
      `?${name}=${JSON.stringify(text).slice(1, -1)} is not a page number (a whole number from 1 to ${MAX_PAGE})`,
    );
  return ok(Number(text));
}

/** Page `page` of `items`, `size` a page; an error when there is no such page. */
export function pageOf<T>(items: readonly T[], page: number, size: number): Result<Page<T>, PageError> {
  const pages = Math.max(1, Math.ceil(items.length / size));
  if (page > pages)
    return fail('NO_SUCH_PAGE', `there is no page ${page}: ${items.length} in all make ${pages} page(s)`);
  const start = (page - 1) * size;
  const slice = items.slice(start, start + size);
  return ok({
    items: slice,
    page,
    pages,
    total: items.length,
    from: slice.length ? start + 1 : 0,
    to: start + slice.length,
  });
}
