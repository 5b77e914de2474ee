import { spawnSync } from "node:child_process";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { collectWhenQuiet } from "./idle-collection.ts";

const request = (url: string) => ({ url }) as IncomingMessage;
const response = {} as ServerResponse;
const isProbe = (req: IncomingMessage) => req.url === "/readyz";

describe("collecting garbage while the server is quiet", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("collects once after start-up, then not again while nothing is served", () => {
    const collect = vi.fn();
    const quiet = collectWhenQuiet(vi.fn(), { collect, quietMs: 10_000, isProbe });
    vi.advanceTimersByTime(10_000);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(600_000);
    expect(collect).toHaveBeenCalledTimes(1);
    quiet.stop();
  });

  it("waits while requests keep coming and collects once they fall off", () => {
    const collect = vi.fn();
    const served = vi.fn();
    const quiet = collectWhenQuiet(served, { collect, quietMs: 10_000, isProbe });
    vi.advanceTimersByTime(10_000);
    collect.mockClear();
    const page = request("/courses");
    for (let i = 0; i < 160; i++) {
      quiet.handler(page, response);
      vi.advanceTimersByTime(250);
    }
    expect(served).toHaveBeenCalledTimes(160);
    expect(served).toHaveBeenCalledWith(page, response);
    expect(collect).not.toHaveBeenCalled();
    // One request every 2 s is a quiet spell: collected within two spells, once.
    for (let i = 0; i < 30; i++) {
      quiet.handler(page, response);
      vi.advanceTimersByTime(2_000);
    }
    expect(collect).toHaveBeenCalledTimes(1);
    quiet.stop();
  });

  it("does not count probes as traffic", () => {
    const collect = vi.fn();
    const served = vi.fn();
    const quiet = collectWhenQuiet(served, { collect, quietMs: 10_000, isProbe });
    vi.advanceTimersByTime(10_000);
    collect.mockClear();
    for (let i = 0; i < 40; i++) quiet.handler(request("/courses"), response);
    // A container's HEALTHCHECK every 100 ms, far more often than one a second.
    for (let i = 0; i < 300; i++) {
      quiet.handler(request("/readyz"), response);
      vi.advanceTimersByTime(100);
    }
    expect(served).toHaveBeenCalledTimes(340);
    expect(collect).toHaveBeenCalledTimes(1);
    quiet.stop();
  });

  it("stops collecting once stopped", () => {
    const collect = vi.fn();
    collectWhenQuiet(vi.fn(), { collect, quietMs: 1_000, isProbe }).stop();
    vi.advanceTimersByTime(10_000);
    expect(collect).not.toHaveBeenCalled();
  });
});

/**
 * Warms `process.nextTick`, collects as given, warms it again and prints V8's view of its inline
 * caches (`%DebugPrint` lists each feedback slot's state in release builds too).
 */
const tickCachesAfter = (collection: string) => {
  const script = `
    import { lastResortCollection } from ${JSON.stringify(new URL("./idle-collection.ts", import.meta.url).href)};
    const ticks = (n) => new Promise((done) => { let left = n; const one = () => { if (--left === 0) done(); }; for (let i = 0; i < n; i++) process.nextTick(one, i); });
    const warm = async () => { for (let i = 0; i < 50; i++) await ticks(10_000); };
    await warm();
    await new Promise((done) => setTimeout(done, 50));
    ${collection};
    await new Promise((done) => setTimeout(done, 50));
    await warm();
    %DebugPrint(process.nextTick);
  `;
  const child = spawnSync(process.execPath, ["--expose-gc", "--allow-natives-syntax", "--input-type=module", "-e", script], { encoding: "utf8" });
  expect(child.status, child.stderr).toBe(0);
  const slots = child.stdout.match(/DefineKeyedOwnPropertyInLiteral [A-Z_]+/g) ?? [];
  expect(slots.length).toBeGreaterThan(1);
  return slots;
};

describe("the last-resort collection", () => {
  it("leaves process.nextTick's tick object cached by its shape", { timeout: 30_000 }, () => {
    // The control: V8's last-resort collection alone loses those shapes, and nextTick's caches turn megamorphic.
    expect(tickCachesAfter(`gc({ type: "major", execution: "sync", flavor: "last-resort" })`)).toContain("DefineKeyedOwnPropertyInLiteral MEGAMORPHIC");
    expect(new Set(tickCachesAfter("lastResortCollection(gc)()"))).toEqual(new Set(["DefineKeyedOwnPropertyInLiteral MONOMORPHIC"]));
  });
});
