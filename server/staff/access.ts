import { eq } from "drizzle-orm";
import { rolesAllow, staffSecondFactorHours, type StaffPermission, type StaffRole } from "../../common/staff.ts";
import type { Viewer } from "../auth/access.ts";
import type { Db } from "../db/client.ts";
import { staffSessions, user } from "../db/schema.ts";
import { Forbidden, NotFound } from "../errors.ts";
import type { Actor } from "./audit.ts";
import { rolesOf } from "./roles.ts";

/** A signed-in person who holds a role, and where their session stands with the second factor. */
export interface StaffMember {
  id: string;
  name: string;
  email: string;
  roles: StaffRole[];
  twoFactorEnabled: boolean;
  /** When this session last confirmed the second factor, if it has. */
  secondFactorAt: Date | null;
}

/** The back office for `viewer`, or null when they hold no role (for them it does not exist). Read afresh on every request: a revoked role is gone at once. */
export async function staffMember(db: Db, viewer: Viewer | null): Promise<StaffMember | null> {
  if (!viewer) return null;
  const roles = await rolesOf(db, viewer.id);
  if (roles.length === 0) return null;
  const [account] = await db.select({ twoFactorEnabled: user.twoFactorEnabled }).from(user).where(eq(user.id, viewer.id));
  const [confirmed] = await db.select({ at: staffSessions.secondFactorAt }).from(staffSessions).where(eq(staffSessions.sessionId, viewer.sessionId));
  return { id: viewer.id, name: viewer.name, email: viewer.email, roles, twoFactorEnabled: account?.twoFactorEnabled === true, secondFactorAt: confirmed?.at ?? null };
}

/** What stands between a staff member and the back office on this session, if anything. */
export function secondFactorNeeded(member: StaffMember, now = new Date()): "set-up" | "confirm" | null {
  if (!member.twoFactorEnabled) return "set-up";
  if (!member.secondFactorAt || now.getTime() - member.secondFactorAt.getTime() > staffSecondFactorHours * 3600_000) return "confirm";
  return null;
}

/**
 * The staff member allowed `permission`: a person without a role is told nothing exists here (404),
 * a staff member without this permission is refused (403). The second factor is the layout's check.
 */
export function requirePermission(member: StaffMember | null, permission: StaffPermission): StaffMember {
  if (!member) throw new NotFound("Page not found");
  if (!rolesAllow(member.roles, permission)) throw new Forbidden("Your roles do not include this part of the back office. An owner can grant it in Staff.");
  return member;
}

/** The audit log's name for a staff member acting from `address`. */
export const actorOf = (member: StaffMember, address: string | null): Actor => ({ id: member.id, name: `${member.name} <${member.email}>`, roles: member.roles, address });

/** Records that this session confirmed the second factor now (after a TOTP or recovery code was accepted). */
export async function confirmSecondFactor(db: Db, sessionId: string, at = new Date()): Promise<void> {
  await db.insert(staffSessions).values({ sessionId, secondFactorAt: at }).onConflictDoUpdate({ target: staffSessions.sessionId, set: { secondFactorAt: at } });
}
