import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import { request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nginxConf } from "../support/nginx-site.ts";
import { freePort } from "../support/free-port.ts";
import { projectRoot } from "./helpers.ts";

/** What Academy would see: the headers of each request nginx passed on. */
let seen: IncomingHttpHeaders[] = [];
let upstream: Server;
let nginx: ChildProcess;
let dir: string;
let port: number;

function nginxVersion(): number[] {
  const { stderr } = spawnSync("nginx", ["-v"], { encoding: "utf8" });
  return (/nginx\/(\d+)\.(\d+)/.exec(stderr) ?? []).slice(1).map(Number);
}

beforeAll(async () => {
  upstream = createServer((req, res) => {
    seen.push(req.headers);
    res.end("from Academy");
  });
  upstream.listen(0, "127.0.0.1");
  await once(upstream, "listening");
  dir = mkdtempSync(path.join(tmpdir(), "academy-nginx-site-"));
  for (const sub of ["logs", "temp", "acme/.well-known/acme-challenge"]) mkdirSync(path.join(dir, sub), { recursive: true });
  writeFileSync(path.join(dir, "acme/.well-known/acme-challenge/token-1"), "token-1.thumbprint");
  const made = spawnSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=academy.test",
    "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")]);
  expect(made.status).toBe(0);
  port = await freePort();
  const conf = nginxConf({ dir, listenPort: port, serverName: "academy.test", upstreams: [`127.0.0.1:${(upstream.address() as AddressInfo).port}`] });
  writeFileSync(path.join(dir, "nginx.conf"), conf);
  nginx = spawn("nginx", ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "logs/error.log"), "-g", "daemon off;"], { stdio: "inherit" });
  for (let tries = 0; tries < 100 && !(await get("/").then(() => true, () => false)); tries++) await new Promise((resolve) => setTimeout(resolve, 50));
});

afterAll(async () => {
  nginx?.kill("SIGQUIT");
  if (nginx && nginx.exitCode === null) await once(nginx, "exit");
  upstream?.close();
});

/** A request to the TLS listener as a browser at `academy.test` sends it. */
function get(urlPath: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: "127.0.0.1", port, path: urlPath, servername: "academy.test", rejectUnauthorized: false, headers: { host: "academy.test", ...headers } }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.once("error", reject);
    req.end();
  });
}

/** A plain-http request to the port-80 server block (on a socket here). */
function getPlain(urlPath: string): Promise<{ status: number; body: string; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: path.join(dir, "http.sock"), path: urlPath, headers: { host: "academy.test" } }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, location: res.headers.location }));
    });
    req.once("error", reject);
    req.end();
  });
}

describe("the shipped nginx site (deploy/nginx-site.conf) on this machine's nginx", () => {
  it("passes nginx -t", () => {
    const checked = spawnSync("nginx", ["-t", "-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "logs/error.log")], { encoding: "utf8" });
    expect(checked.stderr).toContain("test is successful");
  });

  it("passes Academy the client's address, the scheme and a request id, and keeps a client's own X-Forwarded-For to the left", async () => {
    seen = [];
    const response = await get("/courses", { "x-forwarded-for": "10.9.9.9" });
    expect(response).toMatchObject({ status: 200, body: "from Academy" });
    const headers = seen[0] ?? {};
    // TRUST_PROXY=1 takes the last entry: the address nginx saw, not the one the client wrote.
    expect(headers["x-forwarded-for"]).toBe("10.9.9.9, 127.0.0.1");
    expect(headers["x-forwarded-proto"]).toBe("https");
    expect(headers["x-request-id"]).toMatch(/^[0-9a-f]{32}$/);
    expect(headers.host).toBe("academy.test");
  });

  it("keeps /metrics to the machine, and bodies to 5 MB", async () => {
    seen = [];
    expect((await get("/metrics")).status).toBe(404);
    expect(seen).toEqual([]);
    expect((await get("/", { "content-length": String(6 * 1024 * 1024) })).status).toBe(413);
  });

  it("logs one JSON line a request, without the query or a password-reset link's token", async () => {
    await get("/api/auth/reset-password/reset-token-123?callbackURL=%2Freset");
    await get("/api/auth/verify-email?token=verify-token-456");
    // nginx writes a request's line once it has answered; the next read may come a moment before.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = readFileSync(path.join(dir, "logs/access.log"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.path)).toEqual(expect.arrayContaining(["/api/auth/reset-password/[token]", "/api/auth/verify-email"]));
    const text = JSON.stringify(lines);
    expect(text).not.toContain("reset-token-123");
    expect(text).not.toContain("verify-token-456");
  });

  it("sends plain http to https, but answers Let's Encrypt's challenge itself", async () => {
    expect(await getPlain("/courses?page=2")).toMatchObject({ status: 301, location: "https://academy.test/courses?page=2" });
    expect(await getPlain("/.well-known/acme-challenge/token-1")).toMatchObject({ status: 200, body: "token-1.thumbprint" });
  });
});

describe("the Docker deployment's nginx (deploy/nginx.conf)", () => {
  it("runs an nginx image new enough for it (1.28 or later: upstream `resolve`)", () => {
    expect(readFileSync(path.join(projectRoot, "deploy/nginx.conf"), "utf8")).toContain(" resolve ");
    const image = /image: nginx:(\d+)\.(\d+)/.exec(readFileSync(path.join(projectRoot, "compose.yaml"), "utf8"));
    const [major = 0, minor = 0] = (image ?? []).slice(1).map(Number);
    expect(major * 1000 + minor).toBeGreaterThanOrEqual(1028);
  });

  it.skipIf(((v) => (v[0] ?? 0) * 1000 + (v[1] ?? 0))(nginxVersion()) < 1028)("passes nginx -t where nginx is 1.28 or later", () => {
    const conf = readFileSync(path.join(projectRoot, "deploy/nginx.conf"), "utf8")
      .replace("user nginx;", "")
      .replace("pid /run/nginx.pid;", `pid ${dir}/docker.pid;`)
      .replaceAll(/\/var\/log\/nginx\//g, `${dir}/logs/`)
      .replace("/etc/nginx/tls/fullchain.pem", path.join(dir, "cert.pem"))
      .replace("/etc/nginx/tls/privkey.pem", path.join(dir, "key.pem"))
      .replace("include /etc/nginx/academy.conf;", `include ${path.join(projectRoot, "deploy/nginx-academy.conf")};`)
      .replace("include /etc/nginx/academy-log.conf;", `include ${path.join(projectRoot, "deploy/nginx-log.conf")};`);
    writeFileSync(path.join(dir, "docker-nginx.conf"), conf);
    const checked = spawnSync("nginx", ["-t", "-p", dir, "-c", path.join(dir, "docker-nginx.conf")], { encoding: "utf8" });
    expect(checked.stderr).toContain("test is successful");
  });
});
