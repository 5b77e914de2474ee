import type { ChangedTable, ChangeFeed } from "./changes.ts";

interface Kept {
  value: Promise<unknown>;
  tables: readonly ChangedTable[];
  readAt: number;
}

/**
 * What is the same for every visitor (a course's rating and newest reviews, what is on sale), read
 * from the database once per process and kept until a table it was read from changes: the
 * database announces each committed change (server/db/changes.ts), to this process and every
 * other. While the announcements are not being received, nothing is kept and every read goes to
 * the database. `maxAgeMs` bounds what is kept even so, against a change made with the triggers
 * off; `maxEntries` bounds the memory, since keys name courses and nothing a visitor types.
 */
export class SharedReads {
  readonly #kept = new Map<string, Kept>();
  readonly #feed: () => ChangeFeed | null;
  readonly #maxAgeMs: number;
  readonly #maxEntries: number;

  /** `feed` is asked on every read: it may start listening on the first, and be null (no feed: nothing is kept). */
  constructor(feed: () => ChangeFeed | null, options: { maxAgeMs?: number; maxEntries?: number } = {}) {
    this.#feed = feed;
    this.#maxAgeMs = options.maxAgeMs ?? 60_000;
    this.#maxEntries = options.maxEntries ?? 1_000;
  }

  /** Whether reads are being kept: true once the database's changes are being received (asking may start listening). */
  get live(): boolean {
    return this.#feed()?.live ?? false;
  }

  /** Drops what was read from `table`, or everything when it is null; the feed calls it. */
  changed(table: string | null): void {
    if (table === null) {
      this.#kept.clear();
      return;
    }
    for (const [key, kept] of this.#kept) if (kept.tables.some((name) => name === table)) this.#kept.delete(key);
  }

  /**
   * `load`'s answer for `key`, kept until one of `tables` (every table `load` reads) changes. Callers
   * asking at once share one load; a load that fails is not kept. The answer is shared: never change it.
   */
  read<T>(key: string, tables: readonly ChangedTable[], load: () => Promise<T>): Promise<T> {
    if (!this.live) return load();
    const now = Date.now();
    const kept = this.#kept.get(key);
    if (kept && now - kept.readAt < this.#maxAgeMs) return kept.value as Promise<T>;
    if (this.#kept.size >= this.#maxEntries) this.#kept.clear();
    // Kept before it answers, so a change announced meanwhile drops this load too, not only what came before it.
    const value = load();
    const entry: Kept = { value, tables, readAt: now };
    this.#kept.set(key, entry);
    value.catch(() => {
      if (this.#kept.get(key) === entry) this.#kept.delete(key);
    });
    return value;
  }
}
