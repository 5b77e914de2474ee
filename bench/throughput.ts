// Cached anonymous pages beside nginx serving the same bytes from disk (wrk, same machine, same run):
// uncompressed, and gzip (nginx's gzip_static sends the very file we compressed).
import { spawn } from "node:child_process";
import { get } from "node:http";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { wrk, type WrkResult } from "./wrk.ts";

export interface AnonymousRun {
  path: string;
  encoding: "identity" | "gzip";
  nginx: WrkResult;
  academy: WrkResult;
}

/** One page in one encoding, as nginx and Academy send it; the pages must be in Academy's cache already. */
export function compareWithNginx(academyUrl: string, nginxUrl: string, urlPath: string, encoding: AnonymousRun["encoding"], seconds: number): AnonymousRun {
  const headers = encoding === "gzip" ? ["Accept-Encoding: gzip"] : [];
  return {
    path: urlPath,
    encoding,
    nginx: wrk("nginx", nginxUrl + urlPath, { seconds, connections: 50, headers }),
    academy: wrk("academy", academyUrl + urlPath, { seconds, connections: 50, headers }),
  };
}

/**
 * A response body exactly as sent, still in the encoding asked for (fetch would decode it), on a
 * connection of its own: a pooled one may have idled past the server's keep-alive between sections.
 */
export function rawBody(url: string, encoding: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { "Accept-Encoding": encoding }, agent: false }, (response) => {
      if ((response.headers["content-encoding"] ?? "identity") !== encoding) reject(new Error(`${url} was not sent as ${encoding}`));
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve(Buffer.concat(chunks)));
    }).on("error", reject);
  });
}

/** nginx (Debian package) serving `pages` (URL path → HTML and its gzip bytes) from disk, the ceiling to compare against. */
export async function startNginx(port: number, pages: Record<string, { html: Buffer; gzip: Buffer }>): Promise<{ url: string; stop(): void }> {
  const dir = mkdtempSync(path.join(tmpdir(), "academy-nginx-"));
  chmodSync(dir, 0o755);
  const html = path.join(dir, "html");
  mkdirSync(html);
  chmodSync(html, 0o755);
  const locations = Object.entries(pages)
    .map(([urlPath, body], i) => {
      writeFileSync(path.join(html, `page${i}.html`), body.html, { mode: 0o644 });
      writeFileSync(path.join(html, `page${i}.html.gz`), body.gzip, { mode: 0o644 });
      return `location = ${urlPath} { default_type "text/html; charset=utf-8"; try_files /page${i}.html =404; }`;
    })
    .join("\n    ");
  for (const temp of ["client", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(path.join(dir, temp));
  writeFileSync(
    path.join(dir, "nginx.conf"),
    `worker_processes auto;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  gzip_static on;
  gzip_vary on;
  keepalive_requests 100000;
  client_body_temp_path ${dir}/client;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${html};
    ${locations}
  }
}
`,
  );
  const child = spawn("nginx", ["-c", path.join(dir, "nginx.conf"), "-p", dir], { stdio: "inherit" });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    try {
      if ((await fetch(url + Object.keys(pages)[0])).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { url, stop: () => child.kill("SIGQUIT") };
}
