// The interactive API reference loads Scalar's module build (which adds its own stylesheet) from this origin, because the CSP allows nothing else.
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "./helpers.ts";

let testApp: TestApp;

beforeAll(async () => {
  testApp = await startTestApp();
});

afterAll(() => testApp.close());

const scalarFile = (file: string) => readFile(join(dirname(fileURLToPath(import.meta.resolve("@scalar/api-reference"))), file));

const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  testApp.app.fetch(new Request(`http://academy.test${path}`, { method, headers }));

describe("the API reference's files", () => {
  it("serves Scalar's module brotli-compressed to a browser that accepts it, cached for a day, with the security headers", async () => {
    const response = await get("/api-tools/scalar/standalone.esm.js", { "accept-encoding": "gzip, deflate, br" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-request-id")).toMatch(/^[\w-]{8,}$/);
    const body = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get("content-length"))).toBe(body.length);
    expect(brotliDecompressSync(body).equals(await scalarFile("browser/standalone.esm.js"))).toBe(true);
  });

  it("serves the module's parts, named by their content, cached for a year; nothing else from Scalar's folder", async () => {
    const entry = (await scalarFile("browser/standalone.esm.js")).toString();
    const part = /from"\.\/(chunks\/[\w.-]+\.js)"/.exec(entry)?.[1] ?? "";
    const response = await get(`/api-tools/scalar/${part}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(Buffer.from(await response.arrayBuffer()).equals(await scalarFile(`browser/${part}`))).toBe(true);
    for (const path of ["/api-tools/scalar/standalone.js", `/api-tools/scalar/${part}.map`, "/api-tools/scalar/../package.json", "/api-tools/scalar/chunks/../../package.json", "/api-tools/reference.js"]) {
      expect((await get(path)).status, path).toBe(404);
    }
  });

  it("serves Scalar's module as it is to a client that asks for no encoding, and only headers to HEAD", async () => {
    const response = await get("/api-tools/scalar/standalone.esm.js");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(Buffer.from(await response.arrayBuffer()).equals(await scalarFile("browser/standalone.esm.js"))).toBe(true);
    const head = await get("/api-tools/scalar/standalone.esm.js", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await head.text()).toBe("");
  });
});
