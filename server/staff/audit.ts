import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { staffReasonLength, type StaffRole } from "../../common/staff.ts";
import type { Db, Tx } from "../db/client.ts";
import { auditLog } from "../db/schema.ts";
import { ValidationError } from "../errors.ts";

/** Who made a change: a staff member in the back office, or an operator at the server's command line. */
export interface Actor {
  /** The account, or null for the command line. */
  id: string | null;
  /** How the entry names them for as long as it is kept: "Asha Rao <asha@example.com>", "command line (root@web-1)". */
  name: string;
  roles: readonly StaffRole[];
  /** The client's address, or null at the command line. */
  address: string | null;
}

export interface AuditChange {
  /** What was done, as `<area>.<verb>`: "staff.grant", "order.refund". */
  action: string;
  subject: { kind: string; id: string };
  before?: unknown;
  after?: unknown;
  reason?: string | null;
}

/** The reason a staff member typed for a change, trimmed; a ValidationError saying `what` when it is too short or too long. */
export function stateReason(typed: string, what: string): string {
  const reason = typed.trim();
  if (reason.length < staffReasonLength.min || reason.length > staffReasonLength.max) {
    throw new ValidationError(`Say ${what}, in ${staffReasonLength.min} to ${staffReasonLength.max} characters.`);
  }
  return reason;
}

/** Writes one audit entry, in the transaction of the change it records so neither lands without the other. */
export async function recordAudit(db: Db | Tx, actor: Actor, change: AuditChange): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor.id,
    actor: actor.name,
    actorRoles: [...actor.roles],
    action: change.action,
    subjectKind: change.subject.kind,
    subjectId: change.subject.id,
    before: change.before ?? null,
    after: change.after ?? null,
    reason: change.reason ?? null,
    address: actor.address,
  });
}

export type AuditEntry = typeof auditLog.$inferSelect;

export interface AuditFilter {
  action?: string;
  actorId?: string;
  subjectKind?: string;
  subjectId?: string;
  /** Entries before this id, for the next page. */
  before?: number;
}

export const auditPageSize = 50;

/** The newest entries first, filtered, a page at a time. */
export async function listAudit(db: Db, filter: AuditFilter = {}): Promise<{ entries: AuditEntry[]; next: number | null }> {
  const conditions: SQL[] = [];
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.actorId) conditions.push(eq(auditLog.actorId, filter.actorId));
  if (filter.subjectKind) conditions.push(eq(auditLog.subjectKind, filter.subjectKind));
  if (filter.subjectId) conditions.push(eq(auditLog.subjectId, filter.subjectId));
  if (filter.before) conditions.push(lt(auditLog.id, filter.before));
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.id))
    .limit(auditPageSize + 1);
  const entries = rows.slice(0, auditPageSize);
  return { entries, next: rows.length > auditPageSize ? (entries.at(-1)?.id ?? null) : null };
}

/** The actions that appear in the log, for the filter. */
export async function auditActions(db: Db): Promise<string[]> {
  const rows = await db.selectDistinct({ action: auditLog.action }).from(auditLog).orderBy(auditLog.action);
  return rows.map((row) => row.action);
}
