import { escapeHtml } from "../escape-html.ts";
import type { Hono } from "hono";
import type { Db } from "../db/client.ts";
import { listMailbox } from "../mail/outbox.ts";
import type { HttpEnv } from "./env.ts";
import { requestNonce } from "./security-headers.ts";

/**
 * The development mailbox (DESIGN.md): every mail the outbox transport kept, as a page at
 * /dev/mailbox and as JSON at /dev/mailbox.json?to=ADDRESS, newest first. Never mounted in production.
 */
export function mountDevMailbox(app: Hono<HttpEnv>, db: Db): void {
  app.get("/dev/mailbox.json", async (c) => {
    const mails = await listMailbox(db, c.req.query("to") || undefined);
    return c.json(mails.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })));
  });

  app.get("/dev/mailbox", async (c) => {
    const to = c.req.query("to") || undefined;
    const mails = await listMailbox(db, to);
    const items = mails
      .map(
        (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">To <a href="/dev/mailbox?to=${encodeURIComponent(m.to)}">${escapeHtml(m.to)}</a> · <time>${m.createdAt.toISOString()}</time></p>
  <ul>${m.links.map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`).join("")}</ul>
  <pre>${escapeHtml(m.text)}</pre>
</article>`,
      )
      .join("\n");
    return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Development mailbox</title>
<style nonce="${requestNonce(c)}">
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1e293b}
article{border:1px solid #cbd5e1;border-radius:.75rem;padding:1rem 1.25rem;margin:1rem 0}
h2{font-size:1.1rem;margin:0}.meta{color:#475569;font-size:.9rem}pre{white-space:pre-wrap;background:#f8fafc;padding:.75rem;border-radius:.5rem}
</style></head>
<body><h1>Development mailbox</h1>
<p>Mail is not sent anywhere while <code>SMTP_URL</code> is unset; it is kept here.${to ? ` Showing mail to ${escapeHtml(to)} · <a href="/dev/mailbox">show all</a>` : ""}</p>
${items || "<p>No mail yet.</p>"}
</body></html>`);
  });
}
