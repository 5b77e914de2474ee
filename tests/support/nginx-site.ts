// The shipped nginx site (deploy/nginx-site.conf and its snippet) as tests run it: the same file with
// only its machine-specific lines replaced, each of which must still be found, so a change to the
// shipped file is either tested here or fails loudly.
import path from "node:path";
import { readFileSync } from "node:fs";

const deployDir = path.resolve(import.meta.dirname, "../../deploy");

export interface SiteSettings {
  /** Folder holding cert.pem and key.pem, and the ACME challenge root. */
  dir: string;
  listenPort: number;
  serverName: string;
  /** host:port of each Academy process. */
  upstreams: string[];
}

function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at === -1 || text.indexOf(from, at + 1) !== -1) throw new Error(`deploy/nginx-site.conf no longer holds exactly one "${from}"`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** deploy/nginx-site.conf for this machine: on loopback, a throwaway certificate, the given upstreams. */
export function renderSite({ dir, listenPort, serverName, upstreams }: SiteSettings): string {
  const replacements: [string, string][] = [
    ["  server 127.0.0.1:3000 max_fails=3 fail_timeout=10s;", upstreams.map((host) => `  server ${host} max_fails=3 fail_timeout=10s;`).join("\n")],
    ["  listen 80;\n  listen [::]:80;", `  listen unix:${dir}/http.sock;`],
    ["  listen 443 ssl http2;\n  listen [::]:443 ssl http2;", `  listen 127.0.0.1:${listenPort} ssl http2;`],
    ["/etc/letsencrypt/live/academy.example.in/fullchain.pem", path.join(dir, "cert.pem")],
    ["/etc/letsencrypt/live/academy.example.in/privkey.pem", path.join(dir, "key.pem")],
    ["root /var/www/letsencrypt;", `root ${dir}/acme;`],
    ["include /etc/nginx/snippets/academy.conf;", `include ${path.join(deployDir, "nginx-academy.conf")};`],
    ["include /etc/nginx/snippets/academy-log.conf;", `include ${path.join(deployDir, "nginx-log.conf")};`],
  ];
  let site = readFileSync(path.join(deployDir, "nginx-site.conf"), "utf8");
  for (const [from, to] of replacements) site = replaceOnce(site, from, to);
  return site
    .replaceAll("server_name academy.example.in;", `server_name ${serverName};`)
    .replaceAll("/var/log/nginx/academy.access.log", path.join(dir, "logs/access.log"));
}

/** A whole nginx.conf around the site, as Debian's /etc/nginx/nginx.conf includes it, with every path under `dir`. */
export function nginxConf(settings: SiteSettings): string {
  const { dir } = settings;
  // Root starts nginx's workers as `nobody` unless told otherwise; they must read this folder.
  const runAs = process.getuid?.() === 0 ? "user root;" : "";
  return `${runAs}
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
${renderSite(settings)}
}
`;
}
