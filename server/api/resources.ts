import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
// Order numbers are printed the same way on receipts, pages and here.
import { formatOrderNumber } from "../../common/format.ts";
import { noteLength } from "../../common/limits.ts";
import type { Catalog } from "../catalog/index.ts";
import { getReceipt, listOrders, listOwnedCourses } from "../commerce/index.ts";
import type { FieldCipher } from "../crypto/field-encryption.ts";
import type { Db } from "../db/client.ts";
import { BadCursor, NotFound } from "../errors.ts";
import { createNote, deleteNote, getNote, pageOfNotes, updateNote, type Note } from "../notes/index.ts";
import { findWebsite, hostingPlan, listWebsites, stateLabels, websiteHistory, websiteState, type Website } from "../websites/index.ts";
import { requires, type ApiCaller } from "./scopes.ts";

export interface ResourceDeps {
  db: Db;
  cipher: FieldCipher;
  catalog: () => Catalog;
  now: () => Date;
}

type Env = { Variables: { caller: ApiCaller } };

/** The one shape of every answer that is not a success. */
const ErrorBody = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: "not_found" }),
      message: z.string().openapi({ example: "We could not find that note." }),
      fields: z.record(z.string(), z.string()).optional().openapi({ description: "For invalid input: a message per field, by its path." }),
    }),
  })
  .openapi("Error");

/** The headers answers carry, declared once among the document's components. */
const headerComponents = {
  "RateLimit-Limit": {
    description: "Requests allowed in the current one-minute window: this credential's, or its account's across all its keys and CLIs, whichever has fewer left.",
    schema: { type: "integer" },
  },
  "RateLimit-Remaining": { description: "Requests left in that window.", schema: { type: "integer" } },
  "RateLimit-Reset": { description: "Seconds until that window starts again.", schema: { type: "integer" } },
  "Retry-After": { description: "Seconds to wait before sending the request again.", schema: { type: "integer" } },
  "WWW-Authenticate": { description: '`Bearer realm="academy"`: send a token as `Authorization: Bearer <token>`.', schema: { type: "string" } },
} as const;

type HeaderName = keyof typeof headerComponents;

/** Puts the answers' headers among the document's components, for the responses below to refer to. */
export function registerHeaders(api: OpenAPIHono<Env>) {
  for (const [name, header] of Object.entries(headerComponents)) api.openAPIRegistry.registerComponent("headers", name, header);
}

const rateLimit: HeaderName[] = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];

/**
 * The headers an answer with this status carries: the credential's count on every answer after the
 * token is checked, and when to come back on a 429; how to sign in on a 401; none on a 413, which
 * is refused before the token is read.
 */
function headersOf(status: number) {
  const names = status === 401 ? ["WWW-Authenticate"] : status === 413 ? [] : status === 429 ? [...rateLimit, "Retry-After"] : rateLimit;
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

const errorDescriptions: Record<number, string> = {
  400: "The request is not one this operation takes; `fields` names what to change",
  401: "No token, or one that is unknown, expired or revoked",
  403: "The key lacks the scope this operation needs",
  404: "Not found among yours",
  409: "It conflicts with what you already have",
  413: "The body is larger than the server takes",
  415: "The body is not JSON",
  429: "Too many requests: wait Retry-After seconds",
};

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [status, { description: errorDescriptions[status] ?? `Error ${status}`, headers: headersOf(status), content: { "application/json": { schema: ErrorBody } } }]),
  );

/** A success with a JSON body, and the credential's rate-limit headers. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, headers: headersOf(200), content: { "application/json": { schema } } });

/** A success with no body (204), and the credential's rate-limit headers. */
export const noContent = (description: string) => ({ description, headers: headersOf(204) });

/** What an operation that reads a JSON body may answer besides the rest: too large, not JSON, or not what it takes. */
const bodyErrors = [400, 413, 415] as const;

/** A moment, as ISO 8601 in UTC. */
const Timestamp = z.string().openapi({ format: "date-time", example: "2026-11-27T10:15:00.000Z" });

const Money = z.object({ amount: z.number().int().openapi({ description: "Minor units (paise)." }), currency: z.string().openapi({ example: "INR" }) });
const Id = z.object({ id: z.string().min(1).max(64).openapi({ param: { name: "id", in: "path" } }) });
const limitMessage = "Give limit as a whole number from 1 to 100.";
const Page = z.object({
  limit: z.coerce
    .number({ error: limitMessage })
    .int(limitMessage)
    .min(1, limitMessage)
    .max(100, limitMessage)
    .default(50)
    .openapi({ param: { name: "limit", in: "query" }, description: "How many to answer: 1 to 100, 50 if not given." }),
  cursor: z.string().max(200).optional().openapi({ param: { name: "cursor", in: "query" }, description: "`nextCursor` of the previous page." }),
});

const NoteOut = z
  .object({
    id: z.string(),
    title: z.string(),
    body: z.string().openapi({ description: "Markdown." }),
    courseId: z.string().nullable(),
    lessonId: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Note");
const NoteIn = z
  .object({
    title: z.string().max(noteLength.title).default(""),
    body: z.string().max(noteLength.body),
    courseId: z.string().max(100).optional().openapi({ description: "With lessonId: attach the note to a lesson you can open." }),
    lessonId: z.string().max(100).optional(),
  })
  .openapi("NewNote");
const NoteEdit = z
  .object({ title: z.string().max(noteLength.title).optional(), body: z.string().max(noteLength.body).optional() })
  .refine((edit) => edit.title !== undefined || edit.body !== undefined, { message: "Send title, body or both.", path: ["body"] })
  .openapi("NoteEdit", { description: "The title, the body or both; a field left out keeps what it says.", minProperties: 1 });

const Progress = z
  .object({ courseId: z.string(), title: z.string(), completedLessons: z.number().int(), totalLessons: z.number().int(), percent: z.number().int(), enrolledAt: Timestamp })
  .openapi("Progress");

const OrderOut = z
  .object({
    id: z.string(),
    number: z.string().openapi({ example: "ACD-000042" }),
    kind: z.enum(["course", "website"]),
    title: z.string(),
    status: z.enum(["created", "paid", "failed", "cancelled", "refunded"]),
    total: Money,
    createdAt: Timestamp,
    paidAt: Timestamp.nullable(),
    refund: z.object({ status: z.string(), amount: Money }).nullable(),
  })
  .openapi("Order");

const WebsiteOut = z
  .object({
    id: z.string(),
    domain: z.string(),
    plan: z.string(),
    state: z.enum(["pending", "active", "expiring", "expired", "suspended", "cancelled"]),
    status: z.string().openapi({ description: "The state as the website pages word it." }),
    startedAt: Timestamp.nullable(),
    expiresAt: Timestamp.nullable(),
    periods: z.array(z.object({ plan: z.string(), startsAt: Timestamp, endsAt: Timestamp, orderNumber: z.string() })).optional(),
  })
  .openapi("Website");

const noteOut = (note: Note) => ({
  id: note.id,
  title: note.title,
  body: note.body,
  courseId: note.courseId,
  lessonId: note.lessonId,
  createdAt: note.createdAt.toISOString(),
  updatedAt: note.updatedAt.toISOString(),
});

/** The API's resources: each handler calls the same domain function the pages call. */
export function addResources(api: OpenAPIHono<Env>, deps: ResourceDeps) {
  const { db, cipher } = deps;
  const planName = (site: Pick<Website, "serviceId">, planId: string) => hostingPlan(deps.catalog(), site.serviceId, planId)?.name ?? planId;
  const websiteOut = (site: Website) => {
    const state = websiteState(site, deps.now());
    return {
      id: site.id,
      domain: site.domain,
      plan: planName(site, site.planId),
      state,
      status: stateLabels[state],
      startedAt: site.startedAt?.toISOString() ?? null,
      expiresAt: site.expiresAt?.toISOString() ?? null,
    };
  };

  api.openapi(
    createRoute({ method: "get", path: "/notes", operationId: "listNotes", summary: "Your notes, last updated first", security: requires("read"), request: { query: Page }, responses: { 200: json(z.object({ notes: z.array(NoteOut), nextCursor: z.string().nullable() }), "A page of notes"), ...errorResponses(400, 401, 403, 429) } }),
    async (c) => {
      const { limit, cursor } = c.req.valid("query");
      const page = await pageOfNotes(db, cipher, c.get("caller").userId, { limit, cursor });
      return c.json({ notes: page.notes.map(noteOut), nextCursor: page.nextCursor }, 200);
    },
  );
  api.openapi(
    createRoute({ method: "get", path: "/notes/{id}", operationId: "getNote", summary: "One note", security: requires("read"), request: { params: Id }, responses: { 200: json(NoteOut, "The note"), ...errorResponses(401, 403, 404, 429) } }),
    async (c) => c.json(noteOut(await getNote(db, cipher, c.get("caller").userId, c.req.valid("param").id)), 200),
  );
  api.openapi(
    createRoute({
      method: "post",
      path: "/notes",
      operationId: "createNote",
      summary: "Write a note",
      security: requires("notes:write"),
      request: { body: { content: { "application/json": { schema: NoteIn } }, required: true } },
      responses: { 201: json(NoteOut, "The new note"), ...errorResponses(...bodyErrors, 401, 403, 404, 409, 429) },
    }),
    async (c) => {
      const caller = c.get("caller");
      const { title, body, courseId, lessonId } = c.req.valid("json");
      const lesson = courseId || lessonId ? { courseId: courseId ?? "", lessonId: lessonId ?? "" } : undefined;
      return c.json(noteOut(await createNote(db, cipher, deps.catalog(), caller.userId, { title, body, lesson }, deps.now())), 201);
    },
  );
  api.openapi(
    createRoute({
      method: "patch",
      path: "/notes/{id}",
      operationId: "updateNote",
      summary: "Change a note's title, its text or both",
      security: requires("notes:write"),
      request: { params: Id, body: { content: { "application/json": { schema: NoteEdit } }, required: true } },
      responses: { 200: json(NoteOut, "The note as saved"), ...errorResponses(...bodyErrors, 401, 403, 404, 429) },
    }),
    async (c) => {
      const caller = c.get("caller");
      return c.json(noteOut(await updateNote(db, cipher, caller.userId, c.req.valid("param").id, c.req.valid("json"), deps.now())), 200);
    },
  );
  api.openapi(
    createRoute({ method: "delete", path: "/notes/{id}", operationId: "deleteNote", summary: "Delete a note (restorable from /notes for a day)", security: requires("notes:write"), request: { params: Id }, responses: { 204: noContent("Deleted"), ...errorResponses(401, 403, 404, 429) } }),
    async (c) => {
      const caller = c.get("caller");
      await deleteNote(db, caller.userId, c.req.valid("param").id, deps.now());
      return c.body(null, 204);
    },
  );

  api.openapi(
    createRoute({ method: "get", path: "/progress", operationId: "listProgress", summary: "Your progress in each course you are enrolled in", security: requires("read"), responses: { 200: json(z.object({ courses: z.array(Progress) }), "Your courses"), ...errorResponses(401, 403, 429) } }),
    async (c) => {
      const owned = await listOwnedCourses(db, deps.catalog(), c.get("caller").userId);
      return c.json(
        {
          courses: owned.map((o) => ({
            courseId: o.course.id,
            title: o.course.title,
            completedLessons: o.completedLessons,
            totalLessons: o.course.lessonCount,
            percent: o.percent,
            enrolledAt: o.enrolledAt.toISOString(),
          })),
        },
        200,
      );
    },
  );

  api.openapi(
    createRoute({ method: "get", path: "/orders", operationId: "listOrders", summary: "Your orders, newest first", security: requires("read"), request: { query: Page }, responses: { 200: json(z.object({ orders: z.array(OrderOut), nextCursor: z.string().nullable() }), "A page of orders"), ...errorResponses(400, 401, 403, 429) } }),
    async (c) => {
      const { limit, cursor } = c.req.valid("query");
      // Our cursors are order numbers.
      if (cursor !== undefined && !/^[1-9]\d{0,14}$/.test(cursor)) throw new BadCursor();
      // One page read from the database, not the whole history: the cost stays the same however many orders the account has.
      const all = await listOrders(db, c.get("caller").userId, { limit: limit + 1, before: cursor === undefined ? undefined : Number(cursor) });
      const page = all.slice(0, limit);
      return c.json(
        {
          orders: page.map((o) => ({
            id: o.id,
            number: formatOrderNumber(o.number),
            kind: o.kind,
            title: o.title,
            status: o.status,
            total: { amount: o.amount, currency: o.currency },
            createdAt: o.createdAt.toISOString(),
            paidAt: o.paidAt?.toISOString() ?? null,
            refund: o.refund && { status: o.refund.status, amount: { amount: o.refund.amount, currency: o.refund.currency } },
          })),
          nextCursor: all.length > limit ? String(page.at(-1)?.number) : null,
        },
        200,
      );
    },
  );
  api.openapi(
    createRoute({
      method: "get",
      path: "/orders/{id}/receipt",
      operationId: "getReceipt",
      summary: "The receipt of a paid order",
      security: requires("read"),
      request: { params: Id },
      responses: {
        200: json(z.object({ number: z.string(), title: z.string(), total: Money, tax: Money, paidAt: Timestamp.nullable(), paymentId: z.string().nullable(), url: z.string() }).openapi("Receipt"), "The receipt"),
        ...errorResponses(401, 403, 404, 429),
      },
    }),
    async (c) => {
      const { order, payment } = await getReceipt(db, c.get("caller").userId, c.req.valid("param").id);
      if (order.status !== "paid" && order.status !== "refunded") throw new NotFound("This order has not been paid, so it has no receipt.");
      return c.json(
        {
          number: formatOrderNumber(order.number),
          title: order.title,
          total: { amount: order.amount, currency: order.currency },
          tax: { amount: order.taxAmount, currency: order.currency },
          paidAt: order.paidAt?.toISOString() ?? null,
          paymentId: payment?.providerPaymentId ?? null,
          url: `/account/orders/${order.id}/receipt`,
        },
        200,
      );
    },
  );

  // Served with the pages (app/routes/account/invoice.tsx), not under /api/v1, with the same bearer
  // check: described here so the document lists everything a token may fetch, and where.
  api.openAPIRegistry.registerPath({
    method: "get",
    path: "/invoices/{orderId}",
    operationId: "getInvoice",
    servers: [{ url: "/", description: "The site itself: the invoice is not under /api/v1." }],
    summary: "The tax invoice of a paid order, as one HTML file",
    description: "Self-contained (its stylesheet inlined), to save or print as a PDF. A browser signed in to the account may open it too.",
    security: requires("read"),
    request: { params: z.object({ orderId: z.string().openapi({ param: { name: "orderId", in: "path" }, description: "The order's `id`, as `/orders` lists it." }) }) },
    responses: {
      200: { description: "The invoice", headers: headersOf(200), content: { "text/html": { schema: z.string() } } },
      ...errorResponses(401, 403, 404, 429),
    },
  });

  api.openapi(
    createRoute({ method: "get", path: "/websites", operationId: "listWebsites", summary: "The websites we host for you", security: requires("read"), responses: { 200: json(z.object({ websites: z.array(WebsiteOut) }), "Your websites"), ...errorResponses(401, 403, 429) } }),
    async (c) => c.json({ websites: (await listWebsites(db, c.get("caller").userId)).map(websiteOut) }, 200),
  );
  api.openapi(
    createRoute({ method: "get", path: "/websites/{id}", operationId: "getWebsite", summary: "One website, with its paid periods", security: requires("read"), request: { params: Id }, responses: { 200: json(WebsiteOut, "The website"), ...errorResponses(401, 403, 404, 429) } }),
    async (c) => {
      const site = await findWebsite(db, c.get("caller").userId, c.req.valid("param").id);
      const periods = await websiteHistory(db, site.id);
      return c.json(
        {
          ...websiteOut(site),
          periods: periods.map((p) => ({ plan: planName(site, p.planId), startsAt: p.startsAt.toISOString(), endsAt: p.endsAt.toISOString(), orderNumber: formatOrderNumber(p.order.number) })),
        },
        200,
      );
    },
  );
}
