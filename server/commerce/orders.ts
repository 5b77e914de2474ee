import { and, desc, eq, inArray, isNotNull, isNull, ne, type SQL } from "drizzle-orm";
import { orders, websitePeriods, websites } from "../db/schema.ts";
import { courseOffSale, coursesOnSale } from "../catalog/index.ts";
import { Conflict, Gone, NotFound, ServiceUnavailable, ValidationError } from "../errors.ts";
import { isEnrolled } from "./fulfilment.ts";
import { addPaidPeriod, assertRenewable, findWebsite, hostingPlan, type PaidPeriod } from "../websites/index.ts";
import { couponBuyer, couponTerms, discountedPrice } from "./coupons.ts";
import { priceBreakdown, type PriceBreakdown } from "./pricing.ts";
import { coursePlayerPath, grantAccess, mailBuyer, type Shop, type Tx } from "./shop.ts";
import { courseGivenMail } from "../mail/templates.ts";

export type Order = typeof orders.$inferSelect;

const idempotencyKeyPattern = /^[A-Za-z0-9_-]{16,64}$/;
const gstinPattern = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

/** A GSTIN as typed by a buyer, normalised; empty means none. Throws ValidationError when malformed. */
export function normaliseGstin(value: string | null | undefined): string | null {
  const gstin = (value ?? "").replace(/\s+/g, "").toUpperCase();
  if (!gstin) return null;
  if (!gstinPattern.test(gstin)) {
    throw new ValidationError("That GSTIN does not look right. It has 15 characters, like 29ABCDE1234F1Z5; leave it empty if you are not buying for a business.");
  }
  return gstin;
}

type PriceColumns = ReturnType<typeof priceColumns>;

/** An order's money columns, from the price worked out on the server. */
function priceColumns(price: PriceBreakdown) {
  return {
    currency: price.currency,
    amount: price.total,
    taxableAmount: price.taxable,
    taxAmount: price.tax,
    taxRatePercent: price.ratePercent,
    taxMode: price.mode,
  };
}

export interface CreateOrderInput {
  userId: string;
  courseId: string;
  /** One per rendering of the confirmation form, so a resubmitted form finds the same order. */
  idempotencyKey: string;
  buyerGstin?: string | null;
  /** A coupon's code as the buyer typed it; checked again, under a lock, as the order is written. */
  couponCode?: string | null;
}

/**
 * Starts a purchase. The amount comes from content/ (less a coupon's discount), never from the
 * browser. A course that costs nothing, as listed or after its coupon, is enrolled at once; a paid
 * one gets a provider order for the browser's checkout. Resubmitting the same form returns the same order.
 */
export async function createOrder(shop: Shop, input: CreateOrderInput): Promise<Order> {
  const { db } = shop;
  const catalog = shop.catalog();
  const course = catalog.courses.find((c) => c.id === input.courseId);
  if (!course) throw new NotFound("We could not find that course.");
  const previous = await previousOrder(shop, input.userId, input.idempotencyKey, (o) => o.courseId === course.id);
  if (previous) return previous;
  if (!(await coursesOnSale(db)).has(course.id)) throw new Gone(courseOffSale);
  const buyerGstin = normaliseGstin(input.buyerGstin);
  if (await isEnrolled(db, input.userId, course.id)) throw new Conflict("You already own this course.");

  const now = shop.now();
  const buyer = couponBuyer.course(input.userId, course.id);
  const { coupon, reserve } = await couponTerms(db, input.couponCode, buyer, now);
  const { price, discount } = discountedPrice(course.price, catalog.site.tax, coupon);
  const values = {
    userId: input.userId,
    kind: "course" as const,
    courseId: course.id,
    title: course.title,
    ...priceColumns(price),
    buyerGstin,
    couponId: coupon?.id ?? null,
    discountAmount: discount,
    idempotencyKey: input.idempotencyKey,
  };

  if (price.total === 0) {
    return db.transaction(async (tx) => {
      await reserve?.(tx);
      const [order] = await tx
        .insert(orders)
        .values({ ...values, provider: "free", status: "paid", paidAt: now })
        .onConflictDoNothing()
        .returning();
      if (!order) throw new Conflict("This enrolment is already being processed.");
      await grantAccess(tx, { id: order.id, userId: input.userId, courseId: course.id }, now);
      return order;
    });
  }

  return placeOrder(shop, values, {
    notes: { course_id: course.id, course_title: course.title.slice(0, 250), ...(coupon && { coupon: coupon.code }) },
    sameItem: buyer.item,
    reserve,
  });
}

/**
 * An order of ₹0 the company gives (the back office), paid at `values.paidAt` through no provider, so it has no
 * tax invoice and nothing to refund. A Conflict saying `busy` when the same form is being handled.
 */
async function insertGivenOrder(shop: Shop, tx: Tx, values: Omit<OrderValues, keyof PriceColumns>, currency: PriceBreakdown["currency"], busy: string): Promise<Order> {
  const [order] = await tx
    .insert(orders)
    .values({ ...values, ...priceColumns(priceBreakdown({ amount: 0, currency }, shop.catalog().site.tax)), provider: "free", status: "paid" })
    .onConflictDoNothing()
    .returning();
  if (!order) throw new Conflict(busy);
  return order;
}

/**
 * Gives a learner a course without payment, as the company decides (the back office): an order of
 * ₹0 through no provider, so the course is theirs as if bought, with no tax invoice and nothing to
 * refund. `record` runs in the same transaction, for the audit entry. The same form sent again
 * (`idempotencyKey`) returns the same order.
 */
export async function grantCourse(
  shop: Shop,
  input: { userId: string; courseId: string; idempotencyKey: string },
  record: (tx: Tx, order: Order) => Promise<void>,
): Promise<{ order: Order; granted: boolean }> {
  const catalog = shop.catalog();
  const course = catalog.courses.find((c) => c.id === input.courseId);
  if (!course) throw new NotFound("We could not find that course.");
  const previous = await previousOrder(shop, input.userId, input.idempotencyKey, (o) => o.courseId === course.id);
  if (previous) return { order: previous, granted: false };
  if (await isEnrolled(shop.db, input.userId, course.id)) throw new Conflict("They have this course already.");
  const now = shop.now();
  const given = await shop.db.transaction(async (tx) => {
    const order = await insertGivenOrder(
      shop,
      tx,
      { userId: input.userId, kind: "course", courseId: course.id, title: course.title, idempotencyKey: input.idempotencyKey, paidAt: now },
      course.price.currency,
      "This course is already being given.",
    );
    await grantAccess(tx, { id: order.id, userId: input.userId, courseId: course.id }, now);
    await mailBuyer(tx, shop, input.userId, (site, to) => courseGivenMail(site, to, { courseTitle: course.title, courseUrl: `${shop.publicUrl}${coursePlayerPath(course.id)}` }));
    await record(tx, order);
    return { order, granted: true };
  });
  if (given.granted) shop.mailQueued();
  return given;
}

/**
 * Adds a period of a website's own plan without payment, as the company decides (the back office):
 * an order of ₹0 through no provider, with no tax invoice and nothing to refund, whose period starts
 * where the paid time ends. `record` runs in the same transaction, for the audit entry. The same form
 * sent again (`idempotencyKey`) returns the same order and period.
 */
export async function giveHostingPeriod(
  shop: Shop,
  input: { websiteId: string; idempotencyKey: string },
  record: (tx: Tx, order: Order, period: PaidPeriod) => Promise<void>,
): Promise<{ order: Order; period: PaidPeriod; given: boolean }> {
  const [site] = await shop.db.select().from(websites).where(eq(websites.id, input.websiteId)).limit(1);
  if (!site) throw new NotFound("No website has this id: its owner may have deleted their account.");
  const previous = await previousOrder(shop, site.userId, input.idempotencyKey, (o) => o.websiteId === site.id);
  if (previous) {
    const [period] = await shop.db.select().from(websitePeriods).where(eq(websitePeriods.orderId, previous.id));
    if (period) return { order: previous, period: { websiteId: site.id, startsAt: period.startsAt, endsAt: period.endsAt }, given: false };
  }
  if (!site.startedAt) throw new ValidationError("This website was never paid for, so there is no period to extend. Its owner starts it by paying for a first one.");
  if (site.cancelledAt) throw new Conflict("This website is cancelled: a period added now would never run.");
  const plan = hostingPlan(shop.catalog(), site.serviceId, site.planId);
  if (!plan) throw new Conflict(`Its plan (${site.planId}) is no longer sold, so there is no period to add. Its owner renews on a current plan.`);
  const now = shop.now();
  return shop.db.transaction(async (tx) => {
    const order = await insertGivenOrder(
      shop,
      tx,
      { userId: site.userId, kind: "website", websiteId: site.id, planId: plan.id, title: `${plan.name} hosting for ${site.domain}`, idempotencyKey: input.idempotencyKey, paidAt: now },
      plan.price.currency,
      "This period is already being added.",
    );
    const period = await addPaidPeriod(tx, { id: order.id, websiteId: site.id, planId: plan.id }, plan.interval, now);
    // A cancellation or refund that came in since the checks above: nothing is added (the transaction is undone).
    if ("notStarted" in period) throw new Conflict("The website was cancelled or refunded a moment ago: no period was added.");
    await record(tx, order, period);
    return { order, period, given: true };
  });
}

type OrderValues = Omit<typeof orders.$inferInsert, "provider" | "status"> & { userId: string; idempotencyKey: string };

/**
 * Opens a paid order with the provider, for the browser's checkout. Resubmitting the same form
 * (the same idempotency key) returns the same order; older unpaid attempts at the same item
 * (`sameItem`) are abandoned, though a capture that still arrives for one is honoured.
 */
async function placeOrder(
  shop: Shop,
  values: OrderValues,
  item: { notes: Record<string, string>; sameItem: SQL; reserve?: ((tx: Tx) => Promise<unknown>) | undefined },
): Promise<Order> {
  const { db } = shop;
  // `reserve` (a coupon's last use) holds its lock until the order that takes it is written.
  const placed = await db.transaction(async (tx) => {
    await item.reserve?.(tx);
    const reopened = await reopenAttempt(shop, tx, values, item.sameItem);
    if (reopened) return { order: reopened, isNew: false };
    const [order] = await tx
      .insert(orders)
      .values({ ...values, provider: shop.provider.kind })
      .onConflictDoNothing()
      .returning();
    if (order) return { order, isNew: true };
    const [raced] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.userId, values.userId), eq(orders.idempotencyKey, values.idempotencyKey)));
    if (!raced) throw new Conflict("This order is already being processed.");
    return { order: raced, isNew: false };
  });
  if (!placed.isNew) return placed.order;
  const { order } = placed;

  let providerOrderId: string;
  try {
    providerOrderId = (
      await shop.provider.createOrder({ amount: order.amount, currency: order.currency, receipt: order.id, notes: { order_id: order.id, ...item.notes } })
    ).id;
  } catch (error) {
    shop.logger.error({ err: error, orderId: order.id }, "the payment provider did not create an order");
    const reason = "We could not reach the payment provider. Nothing was charged; please try again in a few minutes.";
    await db.update(orders).set({ status: "failed", failureReason: reason, updatedAt: shop.now() }).where(eq(orders.id, order.id));
    throw new ServiceUnavailable(reason);
  }
  const [ready] = await db
    .update(orders)
    .set({ providerOrderId, updatedAt: shop.now() })
    .where(eq(orders.id, order.id))
    .returning();
  await db
    .update(orders)
    .set({ status: "cancelled", updatedAt: shop.now() })
    .where(and(eq(orders.userId, values.userId), item.sameItem, eq(orders.status, "created"), ne(orders.id, order.id)));
  return ready ?? order;
}

/**
 * The buyer's unpaid order for the same item at the same price, made ready to pay again. Its
 * provider order takes another payment attempt (as a Razorpay order does after a decline), so one
 * purchase stays one order however often the buyer declines, closes the window or comes back;
 * the failed payments stay recorded against it. Null when there is none to reuse.
 */
async function reopenAttempt(shop: Shop, db: Tx, values: OrderValues, sameItem: SQL): Promise<Order | null> {
  const [open] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.userId, values.userId),
        sameItem,
        values.planId ? eq(orders.planId, values.planId) : isNull(orders.planId),
        eq(orders.provider, shop.provider.kind),
        inArray(orders.status, ["created", "failed", "cancelled"]),
        isNotNull(orders.providerOrderId),
        eq(orders.title, values.title),
        eq(orders.amount, values.amount),
        eq(orders.taxAmount, values.taxAmount),
        values.couponId ? eq(orders.couponId, values.couponId) : isNull(orders.couponId),
      ),
    )
    .orderBy(desc(orders.createdAt))
    .limit(1);
  if (!open) return null;
  const [reopened] = await db
    .update(orders)
    .set({ status: "created", failureReason: null, buyerGstin: values.buyerGstin ?? null, updatedAt: shop.now() })
    .where(and(eq(orders.id, open.id), inArray(orders.status, ["created", "failed", "cancelled"])))
    .returning();
  // Paid by a late capture between the two statements: the buyer is not asked to pay again.
  if (!reopened) throw new Conflict("This order was paid a moment ago. Reload the page to see it.");
  return reopened;
}

/** The order made by this form before, if any; a key reused for something else means the form is stale. */
async function previousOrder(shop: Shop, userId: string, idempotencyKey: string, sameItem: (order: Order) => boolean): Promise<Order | null> {
  if (!idempotencyKeyPattern.test(idempotencyKey)) throw new ValidationError("This form has expired. Reload the page and try again.");
  const [previous] = await shop.db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, idempotencyKey)));
  if (previous && !sameItem(previous)) throw new ValidationError("This form has expired. Reload the page and try again.");
  return previous ?? null;
}

export interface HostingOrderInput {
  userId: string;
  websiteId: string;
  planId: string;
  idempotencyKey: string;
  buyerGstin?: string | null;
  /** A coupon's code as the owner typed it; checked again, under a lock, as the order is written. */
  couponCode?: string | null;
}

/**
 * Starts paying for a period of one of the user's websites: its first period or a renewal, on
 * any monthly or yearly plan of the service that hosts it (switching plans included). The price
 * comes from content/. The period itself is worked out when the payment arrives (fulfilment.ts).
 */
export async function createHostingOrder(shop: Shop, input: HostingOrderInput): Promise<Order> {
  const catalog = shop.catalog();
  const site = await findWebsite(shop.db, input.userId, input.websiteId);
  const previous = await previousOrder(shop, input.userId, input.idempotencyKey, (o) => o.websiteId === site.id);
  if (previous) return previous;
  const plan = hostingPlan(catalog, site.serviceId, input.planId);
  if (!plan) throw new NotFound("We could not find that plan. Choose one of the plans listed.");
  const buyerGstin = normaliseGstin(input.buyerGstin);
  const now = shop.now();
  await assertRenewable(shop.db, site, now);

  const buyer = couponBuyer.website(input.userId, site.id);
  const { coupon, reserve } = await couponTerms(shop.db, input.couponCode, buyer, now);
  const { price, discount } = discountedPrice(plan.price, catalog.site.tax, coupon);
  if (price.total === 0) throw new ValidationError(`The coupon ${coupon?.code ?? ""} takes the whole price, and a hosting period cannot be free: write to us and we will sort it out.`);
  return placeOrder(
    shop,
    {
      userId: input.userId,
      kind: "website",
      websiteId: site.id,
      planId: plan.id,
      title: `${plan.name} hosting for ${site.domain}`,
      ...priceColumns(price),
      buyerGstin,
      couponId: coupon?.id ?? null,
      discountAmount: discount,
      idempotencyKey: input.idempotencyKey,
    },
    // No domain in the provider's notes: it keeps them after the customer deletes their account, and the website id finds the domain here.
    {
      notes: { website_id: site.id, plan_id: plan.id, ...(coupon && { coupon: coupon.code }) },
      sameItem: buyer.item,
      reserve,
    },
  );
}

/**
 * The page that shows an order's progress and offers to pay again: the course's confirmation page,
 * or the website's renewal page; the order in the orders list once its website is gone.
 */
export function orderPagePath(order: Pick<Order, "id" | "courseId" | "websiteId">): string {
  if (order.courseId) return `/courses/${order.courseId}/confirm?order=${order.id}`;
  if (order.websiteId) return `/account/services/websites/${order.websiteId}/renew?order=${order.id}`;
  return `/account/orders#order-${order.id}`;
}

/** One of the user's own orders; another user's order is "not found", never "forbidden". */
export async function findOrder(shop: Pick<Shop, "db">, userId: string, orderId: string): Promise<Order> {
  if (!/^[0-9a-f-]{36}$/i.test(orderId)) throw new NotFound("We could not find that order.");
  const [order] = await shop.db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) throw new NotFound("We could not find that order.");
  return order;
}

/** The buyer closed the checkout without paying: the order is cancelled if it is still waiting. */
export async function cancelOrder(shop: Shop, userId: string, orderId: string): Promise<Order> {
  const order = await findOrder(shop, userId, orderId);
  const [cancelled] = await shop.db
    .update(orders)
    .set({ status: "cancelled", failureReason: "You closed the payment window before paying. Nothing was charged.", updatedAt: shop.now() })
    .where(and(eq(orders.id, order.id), eq(orders.status, "created")))
    .returning();
  return cancelled ?? order;
}
