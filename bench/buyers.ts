// Accounts for the benchmarks, made over HTTP as people make them: sign up, verify from the
// development mailbox, then act with the session cookie from a distinct client address.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { callbackPath } from "../server/payments/index.ts";

const password = "correct horse battery staple";

export interface Buyer {
  /** A distinct X-Forwarded-For per buyer, so Better Auth's per-address limits do not trip. */
  address: string;
  cookie: string;
  courseId: string;
}

/** A request as the buyer's browser sends it: same origin, their address and cookie, redirects not followed. */
export function send(url: string, from: { address?: string; cookie?: string }, body?: { form: Record<string, string> } | { json: unknown }): Promise<Response> {
  const headers: Record<string, string> = { Origin: new URL(url).origin };
  if (from.address) headers["X-Forwarded-For"] = from.address;
  if (from.cookie) headers.Cookie = from.cookie;
  let payload: string | undefined;
  if (body && "form" in body) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    payload = new URLSearchParams(body.form).toString();
  } else if (body) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body.json);
  }
  const request = () => fetch(url, { method: payload ? "POST" : "GET", headers, body: payload, redirect: "manual", signal: AbortSignal.timeout(60_000) });
  // A kept-alive connection can close under us after minutes of other measurements (or wrk's load); a read is tried once more on a new one.
  return request().catch((error: unknown) => {
    if (payload === undefined && ["UND_ERR_SOCKET", "EPIPE", "ECONNRESET"].includes((error as { cause?: { code?: string } }).cause?.code ?? "")) return request();
    throw error;
  });
}

/** Better Auth's session cookie from a response, as `name=value` for the Cookie header (`__Secure-` named when PUBLIC_URL is https). */
export function sessionCookie(response: Response): string | undefined {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0] ?? "")
    .find((cookie) => /^(__Secure-)?better-auth\.session_token=/.test(cookie));
}

/** The verification link from the development mailbox; the mail is queued while sign-up answers, so allow a moment. */
export async function verificationLink(url: string, email: string): Promise<string> {
  for (let tries = 0; tries < 50; tries++) {
    const mails = (await (await fetch(`${url}/dev/mailbox.json?to=${encodeURIComponent(email)}`)).json()) as { subject: string; links: string[] }[];
    const link = mails.find((m) => m.subject.startsWith("Confirm your e-mail"))?.links[0];
    if (link) return link;
    await sleep(200);
  }
  throw new Error(`no verification mail for ${email}`);
}

/** Signs a buyer up over HTTP and verifies the address, as a person would; returns their session. */
export async function createBuyer(url: string, run: string, index: number, courseId: string): Promise<Buyer> {
  const email = `bench-${run}-${index}@example.com`;
  const address = `10.${100 + (index >> 16)}.${(index >> 8) & 255}.${index & 255}`;
  const signUp = await send(`${url}/api/auth/sign-up/email`, { address }, { json: { name: `Bench Buyer ${index}`, email, password } });
  const cookie = sessionCookie(signUp);
  if (!signUp.ok || !cookie) throw new Error(`sign-up of ${email} answered ${signUp.status}: ${await signUp.text()}`);
  const link = new URL(await verificationLink(url, email));
  const verified = await send(`${url}${link.pathname}${link.search}`, { address, cookie });
  if (verified.status >= 400) throw new Error(`verifying ${email} answered ${verified.status}`);
  return { address, cookie: sessionCookie(verified) ?? cookie, courseId };
}

/** Runs `task` for 0…count-1 with at most `concurrency` at a time (sign-up hashes passwords; 200 at once only queue). */
export async function pooled<T>(count: number, concurrency: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) results[i] = await task(i);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

export type PurchaseStage = "confirm" | "checkout" | "callback";

/**
 * One purchase as a browser makes it: confirm → sandbox checkout "Pay" with UPI → the signed
 * callback. Throws at the first step that does not answer as it should; `reached` hears each step
 * as it starts, and `accepted` once the sandbox took the payment.
 */
export async function buyCourse(url: string, buyer: Buyer, hooks: { reached?(stage: PurchaseStage): void; accepted?(): void } = {}): Promise<void> {
  hooks.reached?.("confirm");
  const confirm = await send(`${url}/courses/${buyer.courseId}/confirm`, buyer, { form: { intent: "pay", idempotencyKey: randomUUID() } });
  const checkout = confirm.headers.get("location");
  if (!checkout?.startsWith("/sandbox/checkout/order_")) throw new Error(`confirm answered ${confirm.status} ${checkout ?? ""}`);

  hooks.reached?.("checkout");
  // The development sandbox answers only this machine, and a forwarded request is not this machine's.
  const page = await send(`${url}${checkout}`, { cookie: buyer.cookie }, { form: { outcome: "pay", method: "upi" } });
  // The no-JavaScript checkout page carries the callback fields as hidden inputs.
  const fields = Object.fromEntries(Array.from((await page.text()).matchAll(/name="(razorpay_\w+)" value="([^"]*)"/g), (m) => [m[1], m[2]]));
  if (!fields.razorpay_payment_id) throw new Error(`checkout answered ${page.status} without a payment`);
  hooks.accepted?.();

  hooks.reached?.("callback");
  const back = await send(`${url}${callbackPath}`, buyer, { form: fields });
  if (back.status !== 303) throw new Error(`callback answered ${back.status}`);
}
