/**
 * Timers that run only while the tab is shown: a hidden tab's page does no work and asks the
 * device nothing. On being shown again, what is due runs at once.
 */

/** Runs `fn` when the tab is shown again (after it was hidden). */
export function onShown(fn: () => void): void {
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') fn();
  });
}

/**
 * Runs `fn` every `ms` while the tab is visible; stopped while it is hidden, and when it is
 * shown again run at once if `ms` went by since it last ran, then every `ms` again.
 */
export function everyWhileVisible(ms: number, fn: () => void): void {
  let timer: number | undefined;
  let lastRun = performance.now();
  const run = (): void => {
    lastRun = performance.now();
    fn();
  };
  const start = (): void => {
    if (timer === undefined) timer = window.setInterval(run, ms);
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible') {
      window.clearInterval(timer);
      timer = undefined;
      return;
    }
    if (performance.now() - lastRun >= ms) run();
    start();
  });
  if (document.visibilityState === 'visible') start();
}
