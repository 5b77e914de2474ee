import { describe, expect, it } from "vitest";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { acceptsGzip, compressPerRequest, negotiateEncoding } from "./compression.ts";

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

describe("acceptsGzip", () => {
  it.each([
    ["gzip, deflate, br, zstd", true],
    ["br", false],
    ["gzip;q=0, br", false],
    ["*", true],
    [undefined, false],
  ])("Accept-Encoding %j → %s", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

describe("compressPerRequest", () => {
  const page = Buffer.from(Array.from({ length: 600 }, (_, i) => `<li class="rounded-lg p-4 text-slate-700">Lesson ${i}</li>`).join(""));

  it("gives bytes the browser decodes back to the page, in either encoding", async () => {
    expect(brotliDecompressSync(await compressPerRequest(page, "br")).equals(page)).toBe(true);
    expect(gunzipSync(await compressPerRequest(page, "gzip")).equals(page)).toBe(true);
    expect((await compressPerRequest(page, "br")).length).toBeLessThan(page.length / 10);
  });
});
