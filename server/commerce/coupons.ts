import { and, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { formatDay, formatPaise } from "../../common/format.ts";
import type { Money, Site } from "../catalog/index.ts";
import type { Db, Tx } from "../db/client.ts";
import { coupons, orders } from "../db/schema.ts";
import { ValidationError } from "../errors.ts";
import { priceBreakdown, type PriceBreakdown } from "./pricing.ts";

export type Coupon = typeof coupons.$inferSelect;

/** A coupon's code as typed, the way it is kept: trimmed, in capitals. */
export const normaliseCouponCode = (typed: string): string => typed.trim().toUpperCase();

/** Paise off a list price of `amount` paise: a share rounded to the paisa, or the coupon's amount, never more than the price. */
export function couponDiscount(coupon: Pick<Coupon, "kind" | "value">, amount: number): number {
  return coupon.kind === "percent" ? Math.round((amount * coupon.value) / 100) : Math.min(coupon.value, amount);
}

/** What a coupon takes off, as its list and the buyer see it: "20% off", "₹500 off". */
export const couponLabel = (coupon: Pick<Coupon, "kind" | "value">): string => (coupon.kind === "percent" ? `${coupon.value}% off` : `${formatPaise(coupon.value)} off`);

/**
 * The price with `coupon` taken off the list price, with GST worked out on what is left, and the
 * discount as the invoice states it: the taxable value it took away (a discount before GST).
 */
export function discountedPrice(listPrice: Money, tax: Site["tax"], coupon: Pick<Coupon, "kind" | "value"> | null): { price: PriceBreakdown; discount: number } {
  const full = priceBreakdown(listPrice, tax);
  if (!coupon) return { price: full, discount: 0 };
  const price = priceBreakdown({ amount: listPrice.amount - couponDiscount(coupon, listPrice.amount), currency: listPrice.currency }, tax);
  return { price, discount: full.taxable - price.taxable };
}

/**
 * The orders that use a coupon up: paid, or waiting for their payment. A buyer's own waiting order
 * for `item` is left out, since paying for that item again reopens or replaces it.
 */
function usesOf(couponId: string, buyer: CouponBuyer): SQL | undefined {
  return and(
    eq(orders.couponId, couponId),
    or(eq(orders.status, "paid"), and(eq(orders.status, "created"), or(ne(orders.userId, buyer.userId), sql`not (${buyer.item})`))),
  );
}

/**
 * The coupon `typed` names, if `userId` may use it now for `item`; a ValidationError that says why
 * not otherwise. With `lock` (inside the transaction that makes the order) its row is locked, so two
 * buyers cannot both take its last use.
 */
export async function usableCoupon(db: Db | Tx, typed: string, buyer: CouponBuyer, now: Date, options: { lock: boolean }): Promise<Coupon> {
  const code = normaliseCouponCode(typed);
  const query = db.select().from(coupons).where(eq(coupons.code, code));
  const [coupon] = options.lock ? await query.for("update") : await query;
  if (!coupon || coupon.disabledAt) throw new ValidationError(`There is no coupon ${code}. Check the code, or pay the full price.`);
  if (coupon.appliesTo !== "both" && coupon.appliesTo !== buyer.buying) {
    throw new ValidationError(`The coupon ${code} is for ${coupon.appliesTo === "courses" ? "courses" : "website hosting"} only.`);
  }
  if (coupon.startsAt && now < coupon.startsAt) throw new ValidationError(`The coupon ${code} can be used from ${formatDay(coupon.startsAt)}.`);
  if (coupon.endsAt && now >= coupon.endsAt) throw new ValidationError(`The coupon ${code} expired on ${formatDay(coupon.endsAt)}.`);
  const [uses] = await db
    .select({ all: sql<number>`count(*)::int`, theirs: sql<number>`count(*) filter (where ${orders.userId} = ${buyer.userId})::int` })
    .from(orders)
    .where(usesOf(coupon.id, buyer));
  if (coupon.maxUses !== null && (uses?.all ?? 0) >= coupon.maxUses) throw new ValidationError(`The coupon ${code} has been used up.`);
  if ((uses?.theirs ?? 0) >= coupon.perPersonLimit) {
    throw new ValidationError(coupon.perPersonLimit === 1 ? `You have used the coupon ${code} already.` : `You have used the coupon ${code} ${coupon.perPersonLimit} times, as many as it allows.`);
  }
  return coupon;
}

/**
 * The coupon a buyer typed, if any: checked now (a refusal in words before anything is written),
 * and `reserve`, which checks it again with its row locked inside the transaction that writes the order.
 */
export async function couponTerms(
  db: Db,
  typed: string | null | undefined,
  buyer: CouponBuyer,
  now: Date,
): Promise<{ coupon: Coupon | null; reserve: ((tx: Tx) => Promise<Coupon>) | undefined }> {
  const code = typed?.trim() ? typed : null;
  if (!code) return { coupon: null, reserve: undefined };
  return { coupon: await usableCoupon(db, code, buyer, now, { lock: false }), reserve: (tx) => usableCoupon(tx, code, buyer, now, { lock: true }) };
}

/** How many paid orders used each coupon, for the back office's list. */
export async function couponUses(db: Db, couponIds: string[]): Promise<Map<string, number>> {
  if (couponIds.length === 0) return new Map();
  const rows = await db
    .select({ couponId: orders.couponId, n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(inArray(orders.couponId, couponIds), eq(orders.status, "paid")))
    .groupBy(orders.couponId);
  return new Map(rows.map((row) => [row.couponId as string, row.n]));
}

/** The coupon a buyer typed for a course: whether they may use it now, and the price it makes. */
export async function couponForCourse(
  db: Db,
  site: Pick<Site, "tax">,
  buyer: { userId: string; course: { id: string; price: Money } },
  typed: string,
  now: Date,
): Promise<{ coupon: Coupon; price: PriceBreakdown; discount: number }> {
  const coupon = await usableCoupon(db, typed, couponBuyer.course(buyer.userId, buyer.course.id), now, { lock: false });
  return { coupon, ...discountedPrice(buyer.course.price, site.tax, coupon) };
}

/** Someone about to buy `item` (what their orders for it match), of a kind a coupon may be for. */
export interface CouponBuyer {
  userId: string;
  buying: "courses" | "hosting";
  item: SQL;
}

/** The buyer of a course, or of a period of one of their websites, as coupons count their uses. */
export const couponBuyer = {
  course: (userId: string, courseId: string): CouponBuyer => ({ userId, buying: "courses", item: eq(orders.courseId, courseId) }),
  website: (userId: string, websiteId: string): CouponBuyer => ({ userId, buying: "hosting", item: eq(orders.websiteId, websiteId) }),
};

/** The coupon a website's owner typed on its renewal page, if they may use it now; a ValidationError saying why not otherwise. */
export function hostingCoupon(db: Db, buyer: { userId: string; websiteId: string }, typed: string, now: Date): Promise<Coupon> {
  return usableCoupon(db, typed, couponBuyer.website(buyer.userId, buyer.websiteId), now, { lock: false });
}
