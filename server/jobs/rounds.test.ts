import { describe, expect, it } from "vitest";
import { inRounds } from "./rounds.ts";

/** A round that waits until released, counting how many ran and how many ran at once. */
function heldRounds(more: () => boolean = () => false) {
  const seen = { started: 0, atOnce: 0, most: 0 };
  let release: (() => void)[] = [];
  const rounds = inRounds(async () => {
    seen.started += 1;
    seen.atOnce += 1;
    seen.most = Math.max(seen.most, seen.atOnce);
    await new Promise<void>((resolve) => release.push(resolve));
    seen.atOnce -= 1;
    return more();
  });
  const releaseAll = async () => {
    for (let i = 0; i < 10 && release.length > 0; i++) {
      const waiting = release;
      release = [];
      for (const resolve of waiting) resolve();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { rounds, seen, releaseAll };
}

describe("background work in rounds", () => {
  it("runs one more round, not one per ask, when asked while a round runs, and never two at once", async () => {
    const { rounds, seen, releaseAll } = heldRounds();
    rounds.run();
    rounds.run();
    rounds.run();
    await releaseAll();
    expect(seen.started).toBe(2);
    expect(seen.most).toBe(1);
  });

  it("runs again while a round says there is more", async () => {
    let left = 3;
    const { rounds, seen, releaseAll } = heldRounds(() => --left > 0);
    rounds.run();
    await releaseAll();
    expect(seen.started).toBe(3);
  });

  it("starts nothing once stopped, and its stop waits for the round running", async () => {
    const { rounds, seen, releaseAll } = heldRounds(() => true);
    rounds.run();
    let stopped = false;
    const stopping = rounds.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    await releaseAll();
    await stopping;
    rounds.run();
    await releaseAll();
    expect(seen.started).toBe(1);
  });
});
