import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { collectWhenIdle } from "./idle-collection.ts";

const request = {} as IncomingMessage;
const response = {} as ServerResponse;

describe("collecting garbage while the server is idle", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("collects once after start-up, then not again while nothing is served", () => {
    const collect = vi.fn();
    const idle = collectWhenIdle(vi.fn(), collect, 1_000);
    vi.advanceTimersByTime(1_000);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(collect).toHaveBeenCalledTimes(1);
    idle.stop();
  });

  it("waits while requests keep coming and collects once they stop", () => {
    const collect = vi.fn();
    const served = vi.fn();
    const idle = collectWhenIdle(served, collect, 1_000);
    vi.advanceTimersByTime(1_000);
    collect.mockClear();
    for (let i = 0; i < 40; i++) {
      idle.handler(request, response);
      vi.advanceTimersByTime(250);
    }
    expect(served).toHaveBeenCalledTimes(40);
    expect(served).toHaveBeenCalledWith(request, response);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2_000);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(collect).toHaveBeenCalledTimes(1);
    idle.stop();
  });

  it("stops collecting once stopped", () => {
    const collect = vi.fn();
    collectWhenIdle(vi.fn(), collect, 1_000).stop();
    vi.advanceTimersByTime(10_000);
    expect(collect).not.toHaveBeenCalled();
  });
});
