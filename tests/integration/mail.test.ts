import { spawn, type ChildProcess } from "node:child_process";
import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/client.ts";
import { mailOutbox } from "../../server/db/schema.ts";
import { createLogger } from "../../server/logger.ts";
import { enqueueMail, listMailbox } from "../../server/mail/outbox.ts";
import { createMailTransport } from "../../server/mail/transport.ts";
import { startMailWorker } from "../../server/mail/worker.ts";
import { freePort } from "../support/free-port.ts";
import { databaseKinds, projectRoot } from "./helpers.ts";

let sink: ChildProcess;
let smtpPort: number;
let httpPort: number;

/** The mail sink the end-to-end suite sends to, as its own process. */
beforeAll(async () => {
  [smtpPort, httpPort] = [await freePort(), await freePort()];
  sink = spawn(process.execPath, ["tests/support/mail-sink.ts"], {
    cwd: projectRoot,
    env: { ...process.env, MAIL_SINK_SMTP_PORT: String(smtpPort), MAIL_SINK_HTTP_PORT: String(httpPort) },
    stdio: "ignore",
  });
  const deadline = Date.now() + 30_000;
  while (!(await fetch(`http://127.0.0.1:${httpPort}/mail.json`).then((r) => r.ok, () => false))) {
    if (Date.now() > deadline) throw new Error("The mail sink did not start.");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 40_000);
afterAll(() => void sink.kill("SIGKILL"));

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger("info", destination), lines };
}

const mail = (to: string, subject: string) => {
  const link = `https://academy.example/api/auth/reset-password/one-time-${subject.length}-token`;
  return { to, subject, text: `Reset your password: ${link}`, html: `<p><a href="${link}">Reset your password</a></p>`, links: [link] };
};

describe.each(databaseKinds)("sending mail over SMTP on $name", ({ open }) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
    await database.migrate();
  });
  afterAll(() => database.close());

  it("logs a refused mail as a warning that names the mail, not the address, and not as delivered", async () => {
    const { logger, lines } = capturedLogger();
    await enqueueMail(database.db, mail("refused.learner@example.com", "Refused"));
    await enqueueMail(database.db, mail("asha@example.com", "Delivered"));
    const transport = createMailTransport({ smtpUrl: `smtp://127.0.0.1:${smtpPort}`, from: "Academy <no-reply@academy.test>" });
    const worker = startMailWorker({ db: database.db, transport, logger, intervalMs: 60_000 });
    await expect.poll(() => lines.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await worker.stop();
    const [refused] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, "refused.learner@example.com"));
    expect(refused).toMatchObject({ status: "pending", attempts: 1 });
    expect(refused?.lastError).toMatch(/550/);
    expect(lines.find((line) => line.mailId === refused?.id)).toMatchObject({ level: 40, msg: "mail not delivered; will try again", attempts: 1, retryInSeconds: 30 });
    expect((lines.find((line) => line.mailId === refused?.id)?.reason as string)).toMatch(/550|Recipient address rejected/);
    expect(lines.filter((line) => line.msg === "mail delivered")).toEqual([expect.objectContaining({ level: 30, sent: 1 })]);
    expect(JSON.stringify(lines)).not.toContain("@example.com");
  });

  it("keeps who a sent mail went to, its subject and when, but not its one-time links", async () => {
    const received = (await (await fetch(`http://127.0.0.1:${httpPort}/mail.json?to=asha@example.com`)).json()) as { subject: string; links: string[] }[];
    expect(received[0]).toMatchObject({ subject: "Delivered", links: [expect.stringContaining("one-time-9-token")] });
    const [sent] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, "asha@example.com"));
    expect(sent).toMatchObject({ status: "sent", subject: "Delivered", text: "", html: "", links: [] });
    expect(sent?.sentAt).toBeInstanceOf(Date);
    // Pending mail keeps its body until it is sent.
    const [refused] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, "refused.learner@example.com"));
    expect(refused?.links).toEqual([expect.stringContaining("one-time-7-token")]);
  });

  it("keeps the whole mail with the outbox transport, whose table is the development mailbox", async () => {
    const { logger } = capturedLogger();
    await enqueueMail(database.db, mail("ravi@example.com", "In the mailbox"));
    const worker = startMailWorker({ db: database.db, transport: createMailTransport({ smtpUrl: undefined, from: "Academy <no-reply@academy.test>" }), logger, intervalMs: 60_000 });
    await expect.poll(async () => (await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, "ravi@example.com")))[0]?.status).toBe("sent");
    await worker.stop();
    const [shown] = await listMailbox(database.db, "ravi@example.com");
    expect(shown?.links).toEqual([expect.stringContaining("one-time-14-token")]);
  });
});
