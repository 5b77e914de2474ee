// nginx terminating TLS in front of the app, as a production deployment runs it: a throwaway
// self-signed certificate, plain http to the app on loopback, X-Forwarded-For appended and
// X-Forwarded-Proto set, and several app processes balanced when TLS_PROXY_UPSTREAM lists more than
// one (comma-separated). Runs nginx in the foreground until this process is stopped.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const listenPort = Number(process.env.TLS_PROXY_PORT ?? 4343);
const upstreams = (process.env.TLS_PROXY_UPSTREAM ?? "http://127.0.0.1:4340").split(",").map((url) => new URL(url).host);
const serverName = process.env.TLS_PROXY_SERVER_NAME ?? "academy.test";

const dir = mkdtempSync(path.join(tmpdir(), "academy-tls-proxy-"));
for (const sub of ["logs", "temp"]) mkdirSync(path.join(dir, sub));

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

// Root starts nginx's workers as `nobody` unless told otherwise; they must read this folder.
const runAs = process.getuid?.() === 0 ? "user root;" : "";
writeFileSync(
  path.join(dir, "nginx.conf"),
  `${runAs}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/temp/body;
  proxy_temp_path ${dir}/temp/proxy;
  fastcgi_temp_path ${dir}/temp/fastcgi;
  uwsgi_temp_path ${dir}/temp/uwsgi;
  scgi_temp_path ${dir}/temp/scgi;
  client_max_body_size 5m;
  upstream academy {
${upstreams.map((host) => `    server ${host} max_fails=1 fail_timeout=10s;`).join("\n")}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${listenPort} ssl http2;
    server_name ${serverName};
    ssl_certificate ${dir}/cert.pem;
    ssl_certificate_key ${dir}/key.pem;
    location / {
      proxy_pass http://academy;
      proxy_http_version 1.1;
      proxy_set_header Host $host:$server_port;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header Connection "";
    }
  }
}
`,
);

const nginx = spawn("nginx", ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "logs", "error.log"), "-g", "daemon off;"], {
  stdio: "inherit",
});
nginx.on("exit", (code) => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => nginx.kill("SIGQUIT"));
