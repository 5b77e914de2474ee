// The back office's roles and its audit log (issue 27): roles live in the database and are read on
// every request; every change is an audit entry in the same transaction; the log refuses to change.
import { spawn } from "node:child_process";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCatalog, type Catalog } from "../../server/catalog/index.ts";
import { auditLog, staffRoles } from "../../server/db/schema.ts";
import { confirmSecondFactor, grantRole, listAudit, listStaff, revokeRole, rolesOf, secondFactorNeeded, staffMember, type Actor } from "../../server/staff/index.ts";
import { migratedDataDir } from "../support/database-templates.ts";
import { contentDir, databaseKinds, identitySuite, projectRoot } from "./helpers.ts";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await loadCatalog(contentDir);
});

const viewer = (id: string, sessionId: string) => ({ id, name: "x", email: "x@example.com", image: null, emailVerified: true, sessionId });
/** The database's own words refusing `query` (Drizzle reports the query, with them as its cause). */
async function refusal(query: Promise<unknown>): Promise<string> {
  const error = await query.then(
    () => null,
    (failure: unknown) => failure as Error & { cause?: Error },
  );
  return (error?.cause ?? error)?.message ?? "no error";
}

const operator: Actor = { id: null, name: "command line (test)", roles: [], address: null };

describe.each(databaseKinds)("staff roles and the audit log on $name", ({ open }) => {
  const suite = identitySuite(open, () => catalog);

  it("grants and revokes roles by e-mail, once each, writing who did it, before and after", async () => {
    const { id, email } = await suite.signUp("Kavya Nair");
    expect(await grantRole(suite.db, operator, email.toUpperCase(), "owner")).toEqual({ changed: true, userId: id });
    expect(await grantRole(suite.db, operator, email, "owner")).toEqual({ changed: false, userId: id });
    const owner: Actor = { id, name: `Kavya Nair <${email}>`, roles: ["owner"], address: "203.0.113.9" };
    const support = await suite.signUp("Ravi Kumar");
    await grantRole(suite.db, owner, support.email, "support");
    await grantRole(suite.db, owner, support.email, "finance");
    expect(await rolesOf(suite.db, support.id)).toEqual(["finance", "support"]);
    await revokeRole(suite.db, owner, support.email, "finance");
    expect(await rolesOf(suite.db, support.id)).toEqual(["support"]);

    const { entries } = await listAudit(suite.db);
    expect(entries.slice(0, 4).map((e) => [e.action, e.actor, e.address])).toEqual([
      ["staff.revoke", `Kavya Nair <${email}>`, "203.0.113.9"],
      ["staff.grant", `Kavya Nair <${email}>`, "203.0.113.9"],
      ["staff.grant", `Kavya Nair <${email}>`, "203.0.113.9"],
      ["staff.grant", "command line (test)", null],
    ]);
    expect(entries[0]).toMatchObject({ subjectKind: "user", subjectId: support.id, actorRoles: ["owner"], before: { roles: ["finance", "support"] }, after: { roles: ["support"] } });
    expect((await listAudit(suite.db, { subjectId: id })).entries).toHaveLength(1);
    expect((await listStaff(suite.db)).map((p) => [p.name, p.roles])).toEqual([
      ["Kavya Nair", ["owner"]],
      ["Ravi Kumar", ["support"]],
    ]);
  });

  it("refuses an unknown account, an unknown role and removing the last owner, with a sentence, changing nothing", async () => {
    const { email } = await suite.signUp("Meera Iyer");
    await expect(grantRole(suite.db, operator, "nobody@example.com", "support")).rejects.toThrow("No account has the e-mail nobody@example.com.");
    await expect(grantRole(suite.db, operator, email, "admin")).rejects.toThrow('There is no role called "admin". The roles are owner, support, finance and content.');
    await grantRole(suite.db, operator, email, "owner");
    // Every other owner goes; the last one stays.
    for (const other of (await listStaff(suite.db)).filter((p) => p.email !== email && p.roles.includes("owner"))) await revokeRole(suite.db, operator, other.email, "owner");
    const written = (await listAudit(suite.db)).entries.length;
    await expect(revokeRole(suite.db, operator, email, "owner")).rejects.toThrow("This is the only owner. Make someone else an owner first, so someone can still manage staff.");
    const owners = await suite.db.select().from(staffRoles).where(eq(staffRoles.role, "owner"));
    expect(owners.map((r) => r.userId)).toHaveLength(1);
    expect((await listAudit(suite.db)).entries).toHaveLength(written);
  });

  it("keeps the audit log append-only: UPDATE, DELETE and TRUNCATE are refused by the database itself", async () => {
    const { email } = await suite.signUp("Arjun Das");
    await grantRole(suite.db, operator, email, "content");
    const sentence = "The audit log is append-only: entries are never changed or deleted.";
    expect(await refusal(suite.db.update(auditLog).set({ reason: "tampered" }))).toBe(sentence);
    expect(await refusal(suite.db.execute(sql`update audit_log set reason = 'tampered'`))).toBe(sentence);
    expect(await refusal(suite.db.execute(sql`delete from audit_log`))).toBe(sentence);
    expect(await refusal(suite.db.execute(sql`truncate audit_log`))).toBe(sentence);
    const { entries } = await listAudit(suite.db, { action: "staff.grant" });
    expect(entries.map((e) => e.reason)).toEqual(entries.map(() => null));
  });

  it("knows a staff member from a customer on each request, and when their session needs the second factor", async () => {
    const learner = await suite.signUp("Priya Shah");
    expect(await staffMember(suite.db, viewer(learner.id, "no-session"))).toBeNull();
    expect(await staffMember(suite.db, null)).toBeNull();

    await grantRole(suite.db, operator, learner.email, "support");
    const session = await suite.db.query.session.findFirst({ where: (s, { eq: is }) => is(s.userId, learner.id) });
    const member = await staffMember(suite.db, viewer(learner.id, session?.id ?? ""));
    expect(member).toMatchObject({ roles: ["support"], twoFactorEnabled: false, secondFactorAt: null });
    expect(secondFactorNeeded(member!)).toBe("set-up");

    await suite.db.execute(sql`update "user" set two_factor_enabled = true where id = ${learner.id}`);
    expect(secondFactorNeeded((await staffMember(suite.db, viewer(learner.id, session?.id ?? "")))!)).toBe("confirm");
    const confirmedAt = new Date("2026-11-27T08:00:00Z");
    await confirmSecondFactor(suite.db, session?.id ?? "", confirmedAt);
    const confirmed = (await staffMember(suite.db, viewer(learner.id, session?.id ?? "")))!;
    expect(secondFactorNeeded(confirmed, new Date("2026-11-27T19:59:00Z"))).toBeNull();
    expect(secondFactorNeeded(confirmed, new Date("2026-11-27T20:01:00Z"))).toBe("confirm");

    // Revoked: from the next request on, the back office does not exist for them.
    await revokeRole(suite.db, operator, learner.email, "support");
    expect(await staffMember(suite.db, viewer(learner.id, session?.id ?? ""))).toBeNull();
  });
});

/** `npm run staff -- …` as an operator types it, on its own data folder. */
function staffCommand(dataDir: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { NODE_ENV: _mode, DATABASE_URL: _url, ...inherited } = process.env;
  const child = spawn(process.execPath, ["scripts/staff.ts", ...args], { cwd: projectRoot, env: { ...inherited, DATA_DIR: dataDir }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

describe("npm run staff", { timeout: 120_000 }, () => {
  it("says what is wrong in a sentence and changes nothing: no such account, no such role, no such command", async () => {
    const dataDir = await migratedDataDir("academy-staff-");
    expect(await staffCommand(dataDir, "list")).toMatchObject({ code: 0, stdout: "Nobody holds a role yet. Make the first owner with: npm run staff -- grant <email> owner\n" });
    expect(await staffCommand(dataDir, "grant", "owner@example.com", "owner")).toMatchObject({ code: 1, stderr: "No account has the e-mail owner@example.com. The person signs up first; then grant them a role.\n" });
    expect(await staffCommand(dataDir, "grant", "owner@example.com", "boss")).toMatchObject({ code: 1, stderr: 'There is no role called "boss". The roles are owner, support, finance and content.\n' });
    const typo = await staffCommand(dataDir, "grnat", "owner@example.com", "owner");
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^"grnat owner@example.com owner" is not a staff command\.\n\nUsage: npm run staff -- grant <email> <role>/);
    expect((await staffCommand(dataDir, "list")).stdout).toContain("Nobody holds a role yet.");
  });
});
