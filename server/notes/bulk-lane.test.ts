import { describe, expect, it } from "vitest";
import { inBulkLane } from "./bulk-lane.ts";

/** Holds the event loop for `ms`, as decrypting a slice does. */
function busy(ms: number): number {
  const started = performance.now();
  while (performance.now() - started < ms);
  return performance.now();
}

describe("the bulk lane", () => {
  it("runs one slice at a time, in the order asked, resting three times each slice's time after it", async () => {
    const started: number[] = [];
    const ended: number[] = [];
    const slice = (i: number) => () => {
      started[i] = performance.now();
      ended[i] = busy(20);
      return i;
    };
    expect(await Promise.all([inBulkLane(slice(0)), inBulkLane(slice(1)), inBulkLane(slice(2))])).toEqual([0, 1, 2]);
    for (const i of [1, 2]) expect((started[i] as number) - (ended[i - 1] as number)).toBeGreaterThanOrEqual(3 * 20 - 1);
  });

  it("goes on after a slice that failed", async () => {
    await expect(inBulkLane(() => Promise.reject(new Error("the database went away")))).rejects.toThrow("the database went away");
    expect(await inBulkLane(() => "next")).toBe("next");
  });

  it("leaves the event loop free while it rests", async () => {
    await inBulkLane(() => busy(30));
    let ticked = false;
    const tick = setTimeout(() => (ticked = true), 5);
    await inBulkLane(() => busy(1));
    clearTimeout(tick);
    expect(ticked).toBe(true);
  });
});
