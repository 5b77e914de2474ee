import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { getRequestListener } from "@hono/node-server";
import { eq } from "drizzle-orm";
import { createApiKey } from "../../server/api/keys.ts";
import { createHostingOrder } from "../../server/commerce/index.ts";
import { deviceCode, user } from "../../server/db/schema.ts";
import { startWebsite } from "../../server/websites/index.ts";
import { payInTestSandbox, projectRoot, startTestApp, type TestApp } from "./helpers.ts";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI from this checkout's sources, as `npm run academy` runs it. */
export const sourceCli = [process.execPath, path.join(projectRoot, "cli/academy.ts")];

/** Runs `command` (the CLI: an installed `academy`, or node and a script) with `args`, its own config directory and no colour; `input` is its standard input. */
export function runCli(command: string[], args: string[], env: NodeJS.ProcessEnv = {}, input = ""): Promise<CliRun> {
  const [file = "", ...before] = command;
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...before, ...args], { env: { ...process.env, NO_COLOR: "1", ACADEMY_URL: "", ACADEMY_TOKEN: "", ...env }, stdio: ["pipe", "pipe", "pipe"] });
    child.stdin.end(input);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A config directory of its own, so runs never share (or read the developer's) credentials. */
export const freshConfig = () => mkdtemp(path.join(tmpdir(), "academy-cli-config-"));

export interface ServedApp {
  t: TestApp;
  /** The server's origin, as --server or ACADEMY_URL take it. */
  url: string;
  close(): Promise<void>;
}

/** The test app listening on a port of its own, for the CLI to reach over HTTP. */
export async function serveTestApp(): Promise<ServedApp> {
  let listener: ReturnType<typeof getRequestListener> | undefined;
  const server: Server = createServer((req, res) => void listener?.(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const t = await startTestApp({ publicUrl: url });
  listener = getRequestListener(t.app.fetch);
  return {
    t,
    url,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await t.close();
    },
  };
}

/** A verified person and an API key of theirs with `scopes`. */
export async function personWithKey(t: TestApp, scopes: string[] = ["read", "notes:write"], name = "Script Sanjay"): Promise<{ id: string; email: string; key: string }> {
  const email = `cli-${randomBytes(4).toString("hex")}@example.com`;
  const { user: created } = await t.identity.auth.api.signUpEmail({ body: { name, email, password: "a good long password" } });
  await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, created.id));
  const { secret } = await createApiKey(t.database.db, created.id, { name: "CLI tests", scopes, lifetimeDays: 30 }, new Date());
  return { id: created.id, email, key: secret };
}

/** A CLI token for the person, as `academy login` receives it once they approve its code. */
export async function cliToken(served: ServedApp, userId: string): Promise<string> {
  const post = (to: string, body: unknown) => fetch(`${served.url}${to}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const started = (await (await post("/api/auth/device/code", { client_id: "academy-cli" })).json()) as { device_code: string };
  await served.t.database.db.update(deviceCode).set({ status: "approved", userId }).where(eq(deviceCode.deviceCode, started.device_code));
  const granted = await post("/api/auth/device/token", { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: started.device_code, client_id: "academy-cli" });
  return ((await granted.json()) as { access_token: string }).access_token;
}

/** A config directory whose credentials file holds these logins, as `academy login` writes it. */
export async function configWithLogins(logins: { server: string; token: string; email: string }[]): Promise<string> {
  const config = await freshConfig();
  await mkdir(path.join(config, "academy"), { mode: 0o700 });
  const entries = logins.map(({ server, token, email }) => [server, { token, email, savedAt: new Date().toISOString() }]);
  await writeFile(path.join(config, "academy/credentials.json"), JSON.stringify(Object.fromEntries(entries)), { mode: 0o600 });
  return config;
}

/** A website of the person's, paid for a month: its order has a receipt and a tax invoice. */
export async function paidHostingOrder(t: TestApp, userId: string): Promise<{ orderId: string; websiteId: string; domain: string }> {
  const domain = `cli-${randomBytes(3).toString("hex")}.example.in`;
  const site = await startWebsite(t.database.db, t.catalog, { userId, serviceId: "website-hosting", planId: "starter-monthly", domain });
  const order = await createHostingOrder(t.payments.shop, { userId, websiteId: site.id, planId: "starter-monthly", idempotencyKey: randomBytes(8).toString("hex") });
  await payInTestSandbox(t.payments, order);
  return { orderId: order.id, websiteId: site.id, domain };
}
