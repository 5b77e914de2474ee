import { eq } from "drizzle-orm";
import type { Db, Tx } from "../db/client.ts";
import { coupons } from "../db/schema.ts";

/** A coupon's discount as an invoice states it: its code, and the taxable value it took off the listed price. */
export interface InvoiceDiscount {
  code: string;
  amount: number;
}

/** The coupon discount an order's invoice states, or null when it used none. */
export async function invoiceDiscount(db: Db | Tx, order: { couponId: string | null; discountAmount: number }): Promise<InvoiceDiscount | null> {
  if (!order.couponId || order.discountAmount <= 0) return null;
  const [coupon] = await db.select({ code: coupons.code }).from(coupons).where(eq(coupons.id, order.couponId));
  return coupon ? { code: coupon.code, amount: order.discountAmount } : null;
}
