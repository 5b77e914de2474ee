import { and, asc, eq, sql } from "drizzle-orm";
import { isStaffRole, type StaffRole } from "../../common/staff.ts";
import type { Db, Tx } from "../db/client.ts";
import { staffRoles, twoFactor, user } from "../db/schema.ts";
import { Conflict, NotFound, ValidationError } from "../errors.ts";
import { recordAudit, type Actor } from "./audit.ts";

/** The roles someone holds, in the order the back office lists them; none for a customer. */
export async function rolesOf(db: Db | Tx, userId: string): Promise<StaffRole[]> {
  const rows = await db.select({ role: staffRoles.role }).from(staffRoles).where(eq(staffRoles.userId, userId)).orderBy(asc(staffRoles.role));
  return rows.map((row) => row.role);
}

export interface StaffListing {
  id: string;
  name: string;
  email: string;
  twoFactorEnabled: boolean;
  roles: StaffRole[];
}

/** Everyone holding a role, by name. */
export async function listStaff(db: Db): Promise<StaffListing[]> {
  const rows = await db
    .select({ id: user.id, name: user.name, email: user.email, twoFactorEnabled: user.twoFactorEnabled, roles: sql<StaffRole[]>`array_agg(${staffRoles.role} order by ${staffRoles.role})` })
    .from(staffRoles)
    .innerJoin(user, eq(user.id, staffRoles.userId))
    .groupBy(user.id)
    .orderBy(asc(user.name), asc(user.email));
  return rows.map((row) => ({ ...row, twoFactorEnabled: row.twoFactorEnabled === true }));
}

async function accountByEmail(db: Db, email: string): Promise<{ id: string; email: string }> {
  const [found] = await db
    .select({ id: user.id, email: user.email })
    .from(user)
    .where(eq(user.email, email.trim().toLowerCase()))
    .limit(1);
  if (!found) throw new NotFound(`No account has the e-mail ${email.trim()}. The person signs up first; then grant them a role.`);
  return found;
}

function checkedRole(role: string): StaffRole {
  if (!isStaffRole(role)) throw new ValidationError(`There is no role called "${role}". The roles are owner, support, finance and content.`);
  return role;
}

/** Gives the account with `email` a role, and says so in the audit log; a role held already changes nothing. */
export async function grantRole(db: Db, actor: Actor, email: string, roleName: string): Promise<{ changed: boolean; userId: string }> {
  const role = checkedRole(roleName);
  const account = await accountByEmail(db, email);
  return db.transaction(async (tx) => {
    const before = await rolesOf(tx, account.id);
    if (before.includes(role)) return { changed: false, userId: account.id };
    await tx.insert(staffRoles).values({ userId: account.id, role });
    await recordAudit(tx, actor, { action: "staff.grant", subject: { kind: "user", id: account.id }, before: { email: account.email, roles: before }, after: { email: account.email, roles: [...before, role].toSorted() } });
    return { changed: true, userId: account.id };
  });
}

/**
 * Takes a role away (from the next request on), and says so in the audit log. The last owner
 * cannot be removed: nobody would be left to manage staff but an operator at the server.
 */
export async function revokeRole(db: Db, actor: Actor, email: string, roleName: string): Promise<{ changed: boolean; userId: string }> {
  const role = checkedRole(roleName);
  const account = await accountByEmail(db, email);
  return db.transaction(async (tx) => {
    if (role === "owner") {
      // Two revocations at once must not both see the other owner still there.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('staff_roles.owner'))`);
      const owners = await tx.select({ userId: staffRoles.userId }).from(staffRoles).where(eq(staffRoles.role, "owner"));
      if (owners.length === 1 && owners[0]?.userId === account.id) {
        throw new Conflict("This is the only owner. Make someone else an owner first, so someone can still manage staff.");
      }
    }
    const before = await rolesOf(tx, account.id);
    if (!before.includes(role)) return { changed: false, userId: account.id };
    await tx.delete(staffRoles).where(and(eq(staffRoles.userId, account.id), eq(staffRoles.role, role)));
    await recordAudit(tx, actor, { action: "staff.revoke", subject: { kind: "user", id: account.id }, before: { email: account.email, roles: before }, after: { email: account.email, roles: before.filter((r) => r !== role) } });
    return { changed: true, userId: account.id };
  });
}

/**
 * Turns two-factor sign-in off for someone who lost both their phone and their recovery codes (an
 * operator does this at the server, after making sure who is asking): they sign in with their
 * password alone and set it up again the next time they open the back office.
 */
export async function resetTwoFactor(db: Db, actor: Actor, email: string): Promise<{ changed: boolean; userId: string }> {
  const account = await accountByEmail(db, email);
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ enabled: user.twoFactorEnabled }).from(user).where(eq(user.id, account.id));
    const removed = await tx.delete(twoFactor).where(eq(twoFactor.userId, account.id)).returning({ id: twoFactor.id });
    if (before?.enabled !== true && removed.length === 0) return { changed: false, userId: account.id };
    await tx.update(user).set({ twoFactorEnabled: false }).where(eq(user.id, account.id));
    await recordAudit(tx, actor, { action: "staff.reset-two-factor", subject: { kind: "user", id: account.id }, before: { email: account.email, twoFactor: true }, after: { email: account.email, twoFactor: false } });
    return { changed: true, userId: account.id };
  });
}
