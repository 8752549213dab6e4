/** The start-up progress line of a big fleet (issue 33): at a terminal only, redrawn in place, cleared at the end. */
import { PROGRESS_MIN_DEVICES, progressText, startProgress } from '../../../src/cli/start-progress';

describe('startProgress', () => {
  it('says how many devices of how many have started, grouped by thousands', () => {
    expect(progressText(45_000, 100_000)).toBe('starting devices: 45,000 / 100,000 (45%)');
    expect(progressText(1_001, 1_001)).toBe('starting devices: 1,001 / 1,001 (100%)');
    expect(progressText(0, 0)).toBe('starting devices: 0 / 0 (100%)');
  });

  it('at a terminal, redraws one line with \\r and clears it at the end', () => {
    let written = '';
    const progress = startProgress((text) => (written += text), true, 100_000);
    progress.onProgress?.(1_000, 100_000);
    progress.onProgress?.(100_000, 100_000);
    progress.end();
    expect(written).toBe(
      '\rstarting devices: 1,000 / 100,000 (1%)\x1b[K\rstarting devices: 100,000 / 100,000 (100%)\x1b[K\r\x1b[K',
    );
    progress.end();
    expect(written.endsWith('(100%)\x1b[K\r\x1b[K')).toBe(true);
  });

  it('draws nothing when not at a terminal, or for a fleet of at most PROGRESS_MIN_DEVICES', () => {
    let written = '';
    const write = (text: string): void => void (written += text);
    for (const progress of [
      startProgress(write, false, 100_000),
      startProgress(write, true, PROGRESS_MIN_DEVICES),
      startProgress(write, true, 1),
    ]) {
      expect(progress.onProgress).toBeUndefined();
      progress.end();
    }
    expect(written).toBe('');
  });

  it('clears nothing when nothing was drawn', () => {
    let written = '';
    startProgress((text) => (written += text), true, 5_000).end();
    expect(written).toBe('');
  });
});
