/**
 * How a wire shape is typed in memory. JSON leaves a key whose value is undefined out, so a
 * wire schema (zod) has such a key optional; in memory some keys are nonetheless always there
 * (`status: number | undefined`), so that a writer must say each, if only as `undefined`, and
 * cannot forget one. {@link Stated} turns a schema's optional keys into such keys.
 */

/**
 * `T` with the keys `K` stated: every value has them, though they may hold undefined. (The
 * `K & string` keeps the mapped type from copying `?` from `T`, which would make them optional again.)
 */
export type Stated<T, K extends keyof T> = Omit<T, K> & { [P in K & string]: T[P] };
