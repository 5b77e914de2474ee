import { describe, expect, it } from "vitest";
import { brotliDecompressSync, createGunzip, gunzipSync } from "node:zlib";
import { acceptsGzip, compressLargeFile, compressPerRequest, deflatePart, gzipAround, negotiateEncoding } from "./compression.ts";

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

describe("gzipAround", () => {
  const sheet = Buffer.from(Array.from({ length: 400 }, (_, i) => `.c${i}{margin:${i}px;color:#${(i * 4099).toString(16).padStart(6, "0")}}`).join(""));
  const part = deflatePart(sheet);
  const page = (before: string, after: string) => Buffer.concat([Buffer.from(before), sheet, Buffer.from(after)]);

  it.each([
    ["in the middle", '<!doctype html><head><style nonce="abc">', "</style></head><body>" + "<p>Lesson text</p>".repeat(300)],
    ["at the start", "", "</style><p>after</p>"],
    ["at the end", "<p>before</p><style>", ""],
  ])("gives one gzip member that decodes back to the page, with the part %s", async (_, before, after) => {
    const body = page(before, after);
    const gzip = gzipAround(body, Buffer.byteLength(before), part);
    expect(gunzipSync(gzip).equals(body)).toBe(true);
    // A streaming decoder, as a browser's, fed a byte at a time reads it the same and finds nothing after it.
    const gunzip = createGunzip();
    const chunks: Buffer[] = [];
    gunzip.on("data", (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise((resolve, reject) => gunzip.on("end", resolve).on("error", reject));
    for (let i = 0; i < gzip.length; i++) gunzip.write(gzip.subarray(i, i + 1));
    gunzip.end();
    await ended;
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
  });

  it("carries the part's deflate as it was made once, not deflated again", () => {
    const body = page("<style>", "</style>");
    expect(gzipAround(body, 7, part).includes(part.deflated)).toBe(true);
    expect(part.deflated.length).toBeLessThan(sheet.length / 2);
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
