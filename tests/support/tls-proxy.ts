// nginx terminating TLS in front of the app with the shipped site configuration (deploy/nginx-site.conf,
// tests/support/nginx-site.ts): a throwaway self-signed certificate, plain http to the app on loopback,
// X-Forwarded-For appended and X-Forwarded-Proto set, and several app processes balanced when
// TLS_PROXY_UPSTREAM lists more than one (comma-separated). Runs nginx in the foreground until stopped.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { nginxConf } from "./nginx-site.ts";

const listenPort = Number(process.env.TLS_PROXY_PORT ?? 4343);
const upstreams = (process.env.TLS_PROXY_UPSTREAM ?? "http://127.0.0.1:4340").split(",").map((url) => new URL(url).host);
const serverName = process.env.TLS_PROXY_SERVER_NAME ?? "academy.test";

const dir = mkdtempSync(path.join(tmpdir(), "academy-tls-proxy-"));
for (const sub of ["logs", "temp", "acme"]) mkdirSync(path.join(dir, sub));

const certificate = spawnSync(
  "openssl",
  [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
    "-subj", `/CN=${serverName}`, "-addext", `subjectAltName=DNS:${serverName},IP:127.0.0.1`,
    "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem"),
  ],
  { stdio: ["ignore", "ignore", "pipe"] },
);
if (certificate.status !== 0) throw new Error(`openssl could not make a certificate: ${certificate.stderr}`);

writeFileSync(path.join(dir, "nginx.conf"), nginxConf({ dir, listenPort, serverName, upstreams }));

const nginx = spawn("nginx", ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "logs", "error.log"), "-g", "daemon off;"], {
  stdio: "inherit",
});
nginx.on("exit", (code) => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => nginx.kill("SIGQUIT"));
