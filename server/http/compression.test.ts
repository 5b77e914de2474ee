import { describe, expect, it } from "vitest";
import { negotiateEncoding } from "./compression.ts";

describe("negotiateEncoding", () => {
  it.each([
    [undefined, null],
    ["", null],
    ["gzip, deflate, br, zstd", "br"],
    ["gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["gzip;q=0, br;q=0", null],
    ["identity", null],
    ["*", "br"],
    ["*;q=0.5, br;q=0", "gzip"],
    ["GZIP", "gzip"],
  ])("Accept-Encoding %j → %s", (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});
