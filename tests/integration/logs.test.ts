import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createApiKey } from "../../server/api/keys.ts";
import { fromPglite, type Database } from "../../server/db/client.ts";
import { user } from "../../server/db/schema.ts";
import { createLogger } from "../../server/logger.ts";
import { listMailbox } from "../../server/mail/outbox.ts";
import { migratedDataDir } from "../support/database-templates.ts";
import { childEnv, spawnNode } from "../support/node-process.ts";
import { listeningPort } from "../support/server-process.ts";
import { projectRoot, startTestApp, type TestApp } from "./helpers.ts";

let database: Database;
beforeAll(async () => {
  database = fromPglite(await PGlite.create());
  await database.migrate();
});
afterAll(() => database.close());

/** A logger writing its lines into an array, as the process's would go to stdout. */
function capturedLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      done();
    },
  });
  return { logger: createLogger("info", destination), lines };
}

describe("a failed query in the logs", () => {
  it("names the statement and the database's reason, but none of the values it carried", async () => {
    const email = "asha.verma+private@example.com";
    const values = { id: "user-id-4f1c9a", name: "Asha Verma", email, emailVerified: false, createdAt: new Date(), updatedAt: new Date() };
    await database.db.insert(user).values(values);
    const failure = await database.db
      .insert(user)
      .values(values)
      .catch((error: unknown) => error);
    const { logger, lines } = capturedLogger();
    logger.error({ err: failure }, "request failed");
    logger.flush();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const line = lines.join("\n");
    expect(line).toContain("request failed");
    expect(line).toContain('insert into \\"user\\"');
    expect(line).toMatch(/duplicate key value violates unique constraint/);
    for (const secret of [email, "user-id-4f1c9a", "Asha Verma"]) expect(line).not.toContain(secret);
  });
});

/** What the process printed other than through its logger: Better Auth's, React Router's and pg's own console lines. */
function capturedPrinting() {
  const printed: string[] = [];
  const keep = (...args: unknown[]) => void printed.push(args.map(String).join(" "));
  const spies = [
    ...(["log", "info", "warn", "error", "debug"] as const).map((name) => vi.spyOn(console, name).mockImplementation(keep)),
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (keep(chunk), true)),
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (keep(chunk), true)),
  ];
  return {
    printed,
    restore: () => {
      for (const spy of spies) spy.mockRestore();
    },
  };
}

/** The whole HTTP app, its log lines captured as JSON objects, and a client at one outside address. */
function loggedApp() {
  let t: TestApp | undefined;
  const captured = capturedLogger();
  let printing: ReturnType<typeof capturedPrinting> | undefined;
  beforeAll(async () => {
    t = await startTestApp({ logger: captured.logger });
  });
  beforeEach(() => {
    captured.lines.length = 0;
    printing = capturedPrinting();
  });
  afterEach(() => printing?.restore());
  afterAll(() => t?.close());
  const app = () => t as TestApp;
  return {
    app,
    send(urlPath: string, init: RequestInit & { cookie?: string; requestId?: string } = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has("origin")) headers.set("origin", origin);
      if (init.cookie) headers.set("cookie", init.cookie);
      if (init.requestId) headers.set("x-request-id", init.requestId);
      return app().app.fetch(new Request(`${origin}${urlPath}`, { ...init, headers, redirect: "manual" }), { incoming: { socket: { remoteAddress: clientAddress } } });
    },
    /** Every line logged so far, each parsed (a line that is not JSON fails the test), once the logger has written them. */
    async lines(): Promise<Record<string, unknown>[]> {
      captured.logger.flush();
      await new Promise((resolve) => setTimeout(resolve, 20));
      return captured.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    raw: () => captured.lines.join("\n"),
    printed: () => printing?.printed ?? [],
  };
}

const origin = "http://academy.test";
const clientAddress = "203.0.113.7";
const password = "a good long password";

async function signUp(send: ReturnType<typeof loggedApp>["send"]): Promise<{ id: string; email: string; cookie: string }> {
  const email = `logs-${randomBytes(4).toString("hex")}@example.com`;
  const response = await send("/api/auth/sign-up/email", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Asha Verma", email, password }),
  });
  expect(response.status).toBe(200);
  const { user: created } = (await response.json()) as { user: { id: string } };
  return { id: created.id, email, cookie: response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ") };
}

describe("a database error during a sign-in", () => {
  const logged = loggedApp();

  it("is one JSON error line with the request's id, route, status and client, and none of the values the query carried", async () => {
    const person = await signUp(logged.send);
    await logged.app().database.db.execute(sql`alter table "user" rename to user_away`);
    try {
      const response = await logged.send("/api/auth/sign-in/email", {
        method: "POST",
        requestId: "sign-in-failure-0001",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: person.email, password }),
      });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ code: "SERVER_ERROR", message: "Something went wrong on our side. Please try again." });
    } finally {
      await logged.app().database.db.execute(sql`alter table user_away rename to "user"`);
    }
    const lines = await logged.lines();
    expect(logged.printed()).toEqual([]);
    const ofRequest = lines.filter((line) => line.requestId === "sign-in-failure-0001");
    expect(ofRequest).toHaveLength(1);
    expect(ofRequest[0]).toMatchObject({ level: 50, msg: "request failed", method: "POST", path: "/api/auth/sign-in/email", route: "/api/auth/*", status: 500, client: clientAddress });
    expect(JSON.stringify(ofRequest[0]?.err)).toMatch(/relation \\"user\\" does not exist/);
    expect(logged.raw()).not.toContain(person.email);
    expect(logged.raw()).not.toContain(password);
  });

  it("on a signed-in page is one JSON error line, without the session's token", async () => {
    const person = await signUp(logged.send);
    await logged.app().database.db.execute(sql`alter table "session" rename to session_away`);
    let response: Response;
    try {
      response = await logged.send("/courses", { cookie: person.cookie, requestId: "page-failure-0001" });
    } finally {
      await logged.app().database.db.execute(sql`alter table session_away rename to "session"`);
    }
    expect(response.status).toBe(500);
    const lines = await logged.lines();
    expect(logged.printed()).toEqual([]);
    const ofRequest = lines.filter((line) => line.requestId === "page-failure-0001");
    expect(ofRequest).toHaveLength(1);
    expect(ofRequest[0]).toMatchObject({ level: 50, msg: "request failed", path: "/courses", route: "/courses", status: 500, client: clientAddress });
    expect(JSON.stringify(ofRequest[0]?.err)).toMatch(/relation \\"session\\" does not exist/);
    const token = decodeURIComponent(person.cookie.split("=")[1] ?? "").split(".")[0] as string;
    expect(token.length).toBeGreaterThan(10);
    expect(logged.raw()).not.toContain(token);
    expect(logged.raw()).not.toContain(person.email);
  });
});

describe("a database error after the session is known", () => {
  const logged = loggedApp();

  it("names the signed-in person by id on the request's one error line", async () => {
    const person = await signUp(logged.send);
    await logged.app().database.db.update(user).set({ emailVerified: true }).where(eq(user.id, person.id));
    await logged.app().database.db.execute(sql`alter table notes rename to notes_away`);
    let response: Response;
    try {
      response = await logged.send("/notes", { cookie: person.cookie, requestId: "notes-failure-0001" });
    } finally {
      await logged.app().database.db.execute(sql`alter table notes_away rename to notes`);
    }
    expect(response.status).toBe(500);
    const lines = await logged.lines();
    expect(logged.printed()).toEqual([]);
    const ofRequest = lines.filter((line) => line.requestId === "notes-failure-0001");
    expect(ofRequest).toHaveLength(1);
    expect(ofRequest[0]).toMatchObject({ level: 50, msg: "request failed", route: "/notes", status: 500, userId: person.id, client: clientAddress });
    expect(logged.raw()).not.toContain(person.email);
  });
});

describe("request lines", () => {
  const logged = loggedApp();

  it("carry the request id, route pattern, status, client address and the signed-in user's id, never the e-mail", async () => {
    const person = await signUp(logged.send);
    await logged.app().database.db.update(user).set({ emailVerified: true }).where(eq(user.id, person.id));
    await logged.send("/api/auth/get-session", { cookie: person.cookie, requestId: "session-read-0001" });
    await logged.send("/course/react-fundamentals", { cookie: person.cookie, requestId: "course-page-0001" });
    await logged.send("/course/react-fundamentals", { requestId: "course-page-0002" });
    const lines = await logged.lines();
    expect(logged.printed()).toEqual([]);
    const line = (id: string) => lines.find((l) => l.requestId === id);
    expect(line("session-read-0001")).toMatchObject({ level: 30, method: "GET", path: "/api/auth/get-session", route: "/api/auth/*", status: 200, client: clientAddress, userId: person.id });
    expect(line("course-page-0001")).toMatchObject({ path: "/course/react-fundamentals", route: "/course/:courseId", status: 200, client: clientAddress, userId: person.id });
    expect(line("course-page-0002")).toMatchObject({ route: "/course/:courseId", status: 200 });
    expect(line("course-page-0002")).not.toHaveProperty("userId");
    expect(lines.find((l) => l.path === "/api/auth/sign-up/email")).toMatchObject({ userId: person.id, client: clientAddress });
    expect(logged.raw()).not.toContain(person.email);
  });

  it("name the person an API key belongs to", async () => {
    const person = await signUp(logged.send);
    const made = await createApiKey(logged.app().database.db, person.id, { name: "Logs", scopes: ["read"], lifetimeDays: 30 }, new Date());
    const response = await logged.send("/api/v1/me", { headers: { authorization: `Bearer ${made.secret}` }, requestId: "api-call-0001" });
    expect(response.status).toBe(200);
    const lines = await logged.lines();
    expect(lines.find((l) => l.requestId === "api-call-0001")).toMatchObject({ route: "/api/v1/me", status: 200, userId: person.id, client: clientAddress });
    expect(logged.raw()).not.toContain(made.secret);
  });

  it("leave out background work a request only woke up: the sign-up's verification mail is the mail worker's line", async () => {
    await signUp(logged.send);
    await expect.poll(async () => (await logged.lines()).find((l) => l.msg === "mail delivered")).toBeDefined();
    const delivered = (await logged.lines()).find((l) => l.msg === "mail delivered");
    expect(delivered).not.toHaveProperty("requestId");
    expect(delivered).not.toHaveProperty("userId");
  });

  it("give Better Auth's own messages as JSON lines of the request, without colours", async () => {
    const response = await logged.send("/api/auth/sign-in/email", {
      method: "POST",
      requestId: "unknown-person-0001",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "nobody-here@example.com", password }),
    });
    expect(response.status).toBe(401);
    const lines = await logged.lines();
    expect(logged.printed()).toEqual([]);
    expect(lines.find((l) => l.source === "better-auth")).toMatchObject({ level: 40, requestId: "unknown-person-0001", msg: "User not found" });
    expect(logged.raw()).not.toContain("\u001b[");
    expect(logged.raw()).not.toContain("nobody-here@example.com");
  });

  it("keep one-time tokens out: the password-reset link's, the e-mail verification link's and the CLI's code", async () => {
    const person = await signUp(logged.send);
    const asked = await logged.send("/api/auth/request-password-reset", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: person.email, redirectTo: "/reset-password" }),
    });
    expect(asked.status).toBe(200);
    const mails = await listMailbox(logged.app().database.db, person.email);
    const links = mails.flatMap((mail) => mail.links).map((link) => new URL(link));
    const reset = links.find((link) => link.pathname.startsWith("/api/auth/reset-password/")) as URL;
    const verify = links.find((link) => link.pathname === "/api/auth/verify-email") as URL;
    const resetToken = reset.pathname.split("/").at(-1) as string;
    const verifyToken = verify.searchParams.get("token") as string;
    const followed = await logged.send(reset.pathname + reset.search, { requestId: "reset-link-0001" });
    expect(followed.status).toBe(302);
    const landing = new URL(followed.headers.get("location") as string, origin);
    expect(landing.searchParams.get("token")).toBe(resetToken);
    await logged.send(landing.pathname + landing.search, { requestId: "reset-page-0001" });
    await logged.send(verify.pathname + verify.search, { requestId: "verify-link-0001" });
    await logged.send("/login?cliToken=WXYZ-2345", { requestId: "cli-approval-0001" });
    const lines = await logged.lines();
    const line = (id: string) => lines.find((l) => l.requestId === id);
    expect(line("reset-link-0001")).toMatchObject({ path: "/api/auth/reset-password/[token]", status: 302 });
    expect(line("reset-page-0001")).toMatchObject({ path: "/reset-password", route: "/reset-password" });
    expect(line("verify-link-0001")).toMatchObject({ path: "/api/auth/verify-email" });
    expect(line("cli-approval-0001")).toMatchObject({ path: "/login" });
    for (const secret of [resetToken, verifyToken, "WXYZ-2345"]) expect(logged.raw()).not.toContain(secret);
  });
});

describe("a running server's output", { timeout: 120_000 }, () => {
  it("is JSON lines on stdout, Better Auth's included; stderr has only the sentence for the person who started it", async () => {
    const child = spawnNode(["server/main.ts"], {
      cwd: projectRoot,
      env: childEnv({ HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", DATA_DIR: await migratedDataDir("academy-logs-") }),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      await expect.poll(() => listeningPort(stderr), { timeout: 90_000, interval: 100 }).toBeDefined();
      const base = `http://127.0.0.1:${listeningPort(stderr)}`;
      const response = await fetch(`${base}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: base, "x-request-id": "process-output-0001" },
        body: JSON.stringify({ email: "nobody-here@example.com", password }),
      });
      expect(response.status).toBe(401);
      await expect.poll(() => stdout.includes('"requestId":"process-output-0001","method"'), { timeout: 10_000 }).toBe(true);
    } finally {
      child.kill("SIGKILL");
    }
    const lines = stdout.split("\n").filter(Boolean);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((l) => l.source === "better-auth")).toMatchObject({ requestId: "process-output-0001", msg: "User not found" });
    expect(stderr.trim()).toMatch(/^Academy is running at http:\/\/localhost:\d+ \(listening on 127\.0\.0\.1:\d+\)$/);
  });
});
