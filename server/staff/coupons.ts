import { desc, eq } from "drizzle-orm";
import { formatPaise } from "../../common/format.ts";
import { couponLabel, couponUses, normaliseCouponCode, type Coupon } from "../commerce/index.ts";
import type { Db } from "../db/client.ts";
import { coupons } from "../db/schema.ts";
import { Conflict, NotFound, ValidationError } from "../errors.ts";
import { recordAudit, type Actor } from "./audit.ts";

/** A coupon's code: 3 to 32 capital letters, digits and hyphens, starting with a letter or digit. */
const couponCodePattern = /^[A-Z0-9][A-Z0-9-]{2,31}$/;

export interface CouponInput {
  code: string;
  kind: Coupon["kind"];
  appliesTo: Coupon["appliesTo"];
  /** A percentage for "percent", paise for "amount". */
  value: number;
  startsAt: Date | null;
  endsAt: Date | null;
  maxUses: number | null;
  perPersonLimit: number;
}

/** What finance may make: a code people can type, a discount that leaves a price, limits that allow a use. */
function checkCoupon(input: CouponInput): CouponInput & { code: string } {
  const code = normaliseCouponCode(input.code);
  if (!couponCodePattern.test(code)) throw new ValidationError("A code is 3 to 32 letters, digits and hyphens, such as DIWALI20.");
  if (input.kind === "percent" && !(Number.isInteger(input.value) && input.value >= 1 && input.value <= 100)) {
    throw new ValidationError("A percentage off is a whole number from 1 to 100.");
  }
  if (input.kind === "amount" && !(Number.isSafeInteger(input.value) && input.value >= 100)) throw new ValidationError(`An amount off is at least ${formatPaise(100)}.`);
  if (input.startsAt && input.endsAt && input.startsAt >= input.endsAt) throw new ValidationError("The coupon must end after it starts.");
  if (input.maxUses !== null && !(Number.isInteger(input.maxUses) && input.maxUses >= 1)) throw new ValidationError("Uses in all are a whole number of at least 1, or empty for no limit.");
  if (!(Number.isInteger(input.perPersonLimit) && input.perPersonLimit >= 1)) throw new ValidationError("Uses per person are a whole number of at least 1.");
  return { ...input, code };
}

/** Makes a coupon for course checkout (finance), written to the audit log. A code in use already is refused. */
export async function createCoupon(db: Db, actor: Actor, input: CouponInput): Promise<Coupon> {
  const checked = checkCoupon(input);
  return db.transaction(async (tx) => {
    const [made] = await tx.insert(coupons).values(checked).onConflictDoNothing({ target: coupons.code }).returning();
    if (!made) throw new Conflict(`There is a coupon ${checked.code} already: choose another code.`);
    await recordAudit(tx, actor, {
      action: "coupon.create",
      subject: { kind: "coupon", id: made.id },
      after: { code: made.code, discount: couponLabel(made), appliesTo: made.appliesTo, startsAt: made.startsAt, endsAt: made.endsAt, maxUses: made.maxUses, perPersonLimit: made.perPersonLimit },
    });
    return made;
  });
}

/** Turns a coupon off: from now on checkout refuses it; orders already made with it keep their price. Turning it off twice changes nothing. */
export async function disableCoupon(db: Db, actor: Actor, couponId: string, now = new Date()): Promise<string> {
  return db.transaction(async (tx) => {
    const [coupon] = await tx.select().from(coupons).where(eq(coupons.id, couponId)).for("update");
    if (!coupon) throw new NotFound("No coupon has this id.");
    if (coupon.disabledAt) return `${coupon.code} is off already.`;
    await tx.update(coupons).set({ disabledAt: now }).where(eq(coupons.id, coupon.id));
    await recordAudit(tx, actor, { action: "coupon.disable", subject: { kind: "coupon", id: coupon.id }, before: { code: coupon.code, on: true }, after: { on: false } });
    return `${coupon.code} is off: checkout refuses it from now on.`;
  });
}

export type StaffCoupon = Coupon & { label: string; paidUses: number };

/** Every coupon, newest first, with how many paid orders used it. */
export async function listCoupons(db: Db): Promise<StaffCoupon[]> {
  const rows = await db.select().from(coupons).orderBy(desc(coupons.createdAt));
  const uses = await couponUses(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, label: couponLabel(row), paidUses: uses.get(row.id) ?? 0 }));
}
