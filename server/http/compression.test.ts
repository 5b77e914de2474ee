import { describe, expect, it } from "vitest";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { acceptsGzip, compressLargeFile, compressPerRequest, negotiateEncoding } from "./compression.ts";

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

  it("gives bytes the browser decodes back to the page, in either encoding", () => {
    expect(brotliDecompressSync(compressPerRequest(page, "br")).equals(page)).toBe(true);
    expect(gunzipSync(compressPerRequest(page, "gzip")).equals(page)).toBe(true);
    expect(compressPerRequest(page, "br").length).toBeLessThan(page.length / 10);
  });
});

describe("compressLargeFile", () => {
  it("gives both encodings of the file, each decoding back to it", async () => {
    const file = Buffer.from("export const lessons = [" + Array.from({ length: 5000 }, (_, i) => `"Lesson ${i}"`).join(",") + "];");
    const { br, gzip } = await compressLargeFile(file);
    expect(brotliDecompressSync(br).equals(file)).toBe(true);
    expect(gunzipSync(gzip).equals(file)).toBe(true);
  });
});
