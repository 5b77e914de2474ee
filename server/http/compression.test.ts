import { describe, expect, it } from "vitest";
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from "node:zlib";
import { compressStream, negotiateEncoding } from "./compression.ts";

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

const decode = (encoding: "br" | "gzip", bytes: Buffer) => (encoding === "br" ? brotliDecompressSync(bytes) : gunzipSync(bytes));

async function collect(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe("compressStream", () => {
  const page = Array.from({ length: 600 }, (_, i) => `<li class="rounded-lg p-4 text-slate-700">Lesson ${i}</li>`);

  it.each(["br", "gzip"] as const)("compresses a page written in many small chunks as compactly as in one piece (%s)", async (encoding) => {
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const line of page) controller.enqueue(Buffer.from(line));
        controller.close();
      },
    });
    const compressed = await collect(compressStream(source, encoding));
    expect(decode(encoding, compressed).toString()).toBe(page.join(""));
    const whole = encoding === "br" ? brotliCompressSync(page.join(""), { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }) : gzipSync(page.join(""), { level: 6 });
    expect(compressed.length).toBeLessThan(whole.length * 1.1);
  });

  it("sends what was written before the source pauses, without waiting for its end", async () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const source = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const reader = compressStream(source, "gzip").getReader();
    controller.enqueue(Buffer.from("<html><body>the shell"));
    const received: Uint8Array[] = [];
    const sent = () => gunzipSync(Buffer.concat(received), { finishFlush: constants.Z_SYNC_FLUSH }).toString();
    while (sent() !== "<html><body>the shell") {
      const { done, value } = await reader.read();
      expect(done).toBe(false);
      received.push(value!);
    }
    controller.close();
    await reader.cancel();
  });
});
