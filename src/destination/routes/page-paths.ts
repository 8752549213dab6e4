/** Which paths belong to the recordings pages, known without loading them (recordings-page.ts). */

/** True for `/`, `/recordings` and everything under `/recordings/`: the pages answer these, even with a 404. */
export function isPagePath(path: string): boolean {
  return path === '/' || path === '/recordings' || path.startsWith('/recordings/');
}
