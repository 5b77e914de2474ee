interface Entry<Page> {
  page: Page;
  storedAt: number;
}

/**
 * A short-lived in-memory cache of anonymous HTML. It lives in the process, so a deploy or a
 * content change (content is read at start-up) starts empty. Each entry keeps the CSP nonce it was
 * rendered with in its headers, unguessable before the entry existed. An expired entry is not
 * served as fresh but is kept, for when the page cannot be rendered again (the database is down).
 * Bounded: the oldest entry goes first.
 */
export class PageCache<Page> {
  readonly #entries = new Map<string, Entry<Page>>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: { ttlSeconds: number; maxEntries?: number; now?: () => number }) {
    this.#ttlMs = options.ttlSeconds * 1000;
    this.#maxEntries = options.maxEntries ?? 500;
    this.#now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.#ttlMs > 0;
  }

  /** Whether a request may be answered from the cache, and its page stored: the cache is on, it is a GET or HEAD, and it carries no sign-in session. */
  serves(method: string, cookieHeader: string | undefined): boolean {
    return this.enabled && (method === "GET" || method === "HEAD") && !hasSession(cookieHeader);
  }

  /** The page if it was stored less than the TTL ago. */
  get(key: string): Page | undefined {
    const entry = this.#entries.get(key);
    return entry && this.#now() - entry.storedAt < this.#ttlMs ? entry.page : undefined;
  }

  /** The page however long ago it was stored, and how long ago that was in whole seconds. */
  stale(key: string): { page: Page; ageSeconds: number } | undefined {
    const entry = this.#entries.get(key);
    return entry && { page: entry.page, ageSeconds: Math.floor((this.#now() - entry.storedAt) / 1000) };
  }

  set(key: string, page: Page): void {
    if (!this.enabled) return;
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, { page, storedAt: this.#now() });
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** Requests carrying a sign-in session are never served from, nor stored in, the cache. */
export function hasSession(cookieHeader: string | undefined | null): boolean {
  return cookieHeader !== undefined && cookieHeader !== null && /(^|;\s*)(__Secure-)?better-auth\.session_token=/.test(cookieHeader);
}
