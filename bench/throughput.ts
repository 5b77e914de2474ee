import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";

export interface Throughput {
  target: string;
  path: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export async function load(target: string, baseUrl: string, urlPath: string, seconds: number): Promise<Throughput> {
  const result = await autocannon({ url: baseUrl + urlPath, connections: 50, duration: seconds });
  return {
    target,
    path: urlPath,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** nginx (Debian package) serving `pages` (URL path → HTML) from disk, the ceiling to compare against. */
export async function startNginx(port: number, pages: Record<string, string>): Promise<{ url: string; stop(): void }> {
  const dir = mkdtempSync(path.join(tmpdir(), "academy-nginx-"));
  chmodSync(dir, 0o755);
  const html = path.join(dir, "html");
  mkdirSync(html);
  chmodSync(html, 0o755);
  const locations = Object.entries(pages)
    .map(([urlPath, body], i) => {
      writeFileSync(path.join(html, `page${i}.html`), body, { mode: 0o644 });
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
