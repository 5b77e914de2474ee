/** The edits (insert, delete, change, swap two neighbours) that turn one word into another. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_row, i) => Array.from({ length: b.length + 1 }, (_column, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** The choice a mistyped word most likely meant: within a third of its length in edits (at least one), else null. */
export function nearest(word: string, choices: readonly string[]): string | null {
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: { choice: string; edits: number } | null = null;
  for (const choice of choices) {
    const edits = distance(word.toLowerCase(), choice.toLowerCase());
    if (edits <= limit && (!best || edits < best.edits)) best = { choice, edits };
  }
  return best?.choice ?? null;
}
