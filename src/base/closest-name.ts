/** The known name a mistyped one was probably meant to be: the "did you mean" of option checks. */

/** The known name at the smallest edit distance from `name` (ignoring case), if it is at most `most` edits away. */
export function closestName(name: string, known: readonly string[], most = 2): string | undefined {
  let best: string | undefined;
  let bestDistance = most + 1;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** Levenshtein distance: the fewest insertions, deletions and substitutions turning `a` into `b`. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}
