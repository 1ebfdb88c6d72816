// "Did you mean": the known name nearest to a mistyped one, when it is near enough to be the one meant.

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: the optimal string alignment distance. */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/**
 * The known name nearest to `typed` within two edits (one for a name of four letters or fewer, where two
 * edits change half of it), leading dashes and case aside; else the one name that `typed` abbreviates
 * (below); none when nothing is that near.
 */
export function closest(typed: string, known: readonly string[]): string | null {
  if (typed.length > 64) return null;
  const bare = typed.replace(/^-+/, '').toLowerCase();
  let best: { name: string; distance: number } | null = null;
  for (const name of known) {
    const distance = editDistance(bare, name.replace(/^-+/, ''));
    const limit = name.replace(/^-+/, '').length <= 4 ? 1 : 2;
    if (distance <= limit && (best === null || distance < best.distance)) best = { name, distance };
  }
  return best?.name ?? abbreviated(bare, known);
}

/**
 * The one known name that `bare` starts like: at least three letters in common from the start, and at
 * most its last two letters not (`contribs`, `contrib` and `prof` abbreviate `contributions` and
 * `profile`). None when two names start alike that far: a guess between them would be a coin toss.
 */
function abbreviated(bare: string, known: readonly string[]): string | null {
  const shared = (name: string) => {
    const plain = name.replace(/^-+/, '');
    let n = 0;
    while (n < bare.length && n < plain.length && bare[n] === plain[n]) n++;
    return n;
  };
  const need = Math.max(3, bare.length - 2);
  const scored = known.map((name) => ({ name, n: shared(name) })).filter((c) => c.n >= need);
  if (scored.length === 0) return null;
  const top = Math.max(...scored.map((c) => c.n));
  const best = scored.filter((c) => c.n === top);
  return best.length === 1 ? best[0]!.name : null;
}
