/**
 * The page's `location` for the unit tests of the dashboard's requests: Node has none, and the
 * page fetches at `location.origin` (web/dashboard/http.ts `atOrigin`).
 */

/** The origin the tests' page is at. */
export const PAGE_ORIGIN = 'http://device.test:8080';

/** Gives the file's tests a `location` at {@link PAGE_ORIGIN}, removed after them. Call at the file's top level. */
export function withPageLocation(): void {
  beforeAll(() => {
    Object.defineProperty(globalThis, 'location', {
      configurable: true,
      value: { origin: PAGE_ORIGIN, href: `${PAGE_ORIGIN}/` },
    });
  });
  afterAll(() => {
    delete (globalThis as { location?: unknown }).location;
  });
}
