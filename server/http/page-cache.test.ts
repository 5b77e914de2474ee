import { describe, expect, it } from "vitest";
import { hasSession, PageCache } from "./page-cache.ts";
import { prepareResponse, type PreparedResponse } from "./prepared-response.ts";

const page = (body: string) => prepareResponse(200, {}, Buffer.from(body), {});

describe("PageCache", () => {
  it("expires entries after the TTL", () => {
    let now = 1_000;
    const cache = new PageCache<PreparedResponse>({ ttlSeconds: 60, now: () => now });
    cache.set("/a", page("a"));
    now += 59_999;
    expect(cache.get("/a")?.identity.body.toString()).toBe("a");
    now += 1;
    expect(cache.get("/a")).toBeUndefined();
  });

  it("keeps an expired entry, with its age, for when the page cannot be rendered again", () => {
    let now = 1_000;
    const cache = new PageCache<PreparedResponse>({ ttlSeconds: 60, now: () => now });
    expect(cache.stale("/a")).toBeUndefined();
    cache.set("/a", page("a"));
    now += 3_600_500;
    expect(cache.get("/a")).toBeUndefined();
    const stale = cache.stale("/a");
    expect(stale?.page.identity.body.toString()).toBe("a");
    expect(stale?.ageSeconds).toBe(3_600);
    cache.set("/a", page("a2"));
    expect(cache.get("/a")?.identity.body.toString()).toBe("a2");
    expect(cache.stale("/a")?.ageSeconds).toBe(0);
  });

  it("drops the oldest entry when full", () => {
    const cache = new PageCache<PreparedResponse>({ ttlSeconds: 60, maxEntries: 2 });
    cache.set("/a", page("a"));
    cache.set("/b", page("b"));
    cache.set("/c", page("c"));
    expect(cache.size).toBe(2);
    expect(cache.get("/a")).toBeUndefined();
    expect(cache.get("/c")?.identity.body.toString()).toBe("c");
  });

  it("stores nothing when the TTL is zero", () => {
    const cache = new PageCache<PreparedResponse>({ ttlSeconds: 0 });
    cache.set("/a", page("a"));
    expect(cache.enabled).toBe(false);
    expect(cache.get("/a")).toBeUndefined();
  });

  it("serves GET and HEAD requests without a session, only while it is on", () => {
    const cache = new PageCache<PreparedResponse>({ ttlSeconds: 60 });
    expect(cache.serves("GET", undefined)).toBe(true);
    expect(cache.serves("HEAD", "theme=dark")).toBe(true);
    expect(cache.serves("POST", undefined)).toBe(false);
    expect(cache.serves("GET", "better-auth.session_token=abc")).toBe(false);
    expect(new PageCache<PreparedResponse>({ ttlSeconds: 0 }).serves("GET", undefined)).toBe(false);
  });
});

describe("hasSession", () => {
  it.each([
    [undefined, false],
    ["theme=dark", false],
    ["better-auth.session_token=abc", true],
    ["a=1; __Secure-better-auth.session_token=abc", true],
    ["xbetter-auth.session_token=abc", false],
  ])("cookie %j → %s", (cookie, expected) => {
    expect(hasSession(cookie)).toBe(expected);
  });
});
