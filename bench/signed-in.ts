// Signed-in pages, the ones a learner hits on every visit: a buyer with a purchased course, some
// progress and 200 notes, measured for throughput (wrk) and for latency at a steady rate.
// Signed-in pages are never served from the page cache, so every request renders.
import { randomBytes } from "node:crypto";
import { stylesheetCookie } from "../app/lib/stylesheet-cache.ts";
import { buyCourse, createBuyer, send, type Buyer } from "./buyers.ts";
import { builtStylesheetHref, type RunningServer } from "./server.ts";
import { constantRate, type RateResult } from "./rate.ts";
import { browserAcceptEncoding, serverResidentMb, wrk, type WrkResult } from "./wrk.ts";

const courseId = "webdevfrontendcourse";
const lessons = ["1-1", "1-2", "1-3", "2-1"];
const noteCount = 200;

export interface SignedInPage {
  /** As many requests as 20 connections get answered (wrk). */
  throughput: WrkResult;
  /** Latency at a steady 200 requests a second (the target: p99 ≤ 50 ms). */
  atRate: RateResult;
}

export interface SignedInResult {
  pages: SignedInPage[];
  rssMbBefore: number | null;
  rssMbAfter: number | null;
}

export const signedInPaths = ["/account", "/account/courses", "/notes", `/courses/${courseId}/MainPage`, `/courses/${courseId}/submodule/1-2`, `/course/${courseId}`];

/** What the learner's browser sends with every request. */
export const learnerHeaders = (buyer: Buyer) => ({ Cookie: buyer.cookie, "X-Forwarded-For": buyer.address, "Accept-Encoding": browserAcceptEncoding });

export async function prepareLearner(url: string): Promise<Buyer> {
  const buyer = await createBuyer(url, `signed-in-${randomBytes(3).toString("hex")}`, 0, courseId);
  await buyCourse(url, buyer);
  for (const lesson of lessons) {
    const done = await send(`${url}/courses/${courseId}/submodule/${lesson}`, buyer, { form: { intent: "complete" } });
    if (done.status >= 400) throw new Error(`completing ${lesson} answered ${done.status}`);
  }
  for (let i = 1; i <= noteCount; i++) {
    const created = await send(`${url}/notes`, buyer, { form: { intent: "create" } });
    const noteId = new URL(created.headers.get("location") ?? "", url).searchParams.get("note");
    if (!noteId) throw new Error(`creating a note answered ${created.status}`);
    const body = `Note ${i} on closures, the event loop and **layout**.\n\n- one\n- two\n\n\`\`\`js\nconst x = ${i};\n\`\`\``;
    const saved = await send(`${url}/notes`, buyer, { form: { intent: "save", noteId, title: `Note ${i}`, body } });
    if (saved.status >= 400) throw new Error(`saving a note answered ${saved.status}`);
  }
  // After its first signed-in page a browser holds the stylesheet and says so (app/lib/stylesheet-cache.ts).
  return { ...buyer, cookie: `${buyer.cookie}; ${stylesheetCookie(builtStylesheetHref())}` };
}

export async function signedInBench(server: RunningServer, buyer: Buyer, seconds: number): Promise<SignedInResult> {
  const headers = learnerHeaders(buyer);
  for (const page of signedInPaths) {
    const response = await send(`${server.url}${page}`, buyer);
    if (response.status !== 200) throw new Error(`${page} answered ${response.status} to the signed-in learner`);
  }
  const rssMbBefore = serverResidentMb(server.process.pid);
  const pages: SignedInPage[] = [];
  for (const page of signedInPaths) {
    const throughput = wrk("academy signed in", `${server.url}${page}`, { seconds, connections: 20, headers: Object.entries(headers).map(([k, v]) => `${k}: ${v}`) });
    const atRate = await constantRate(`${server.url}${page}`, { rate: 200, seconds, headers });
    pages.push({ throughput, atRate });
  }
  return { pages, rssMbBefore, rssMbAfter: serverResidentMb(server.process.pid) };
}

export function printSignedIn(r: SignedInResult, database: string, seconds: number) {
  console.log(`\nSigned-in pages on ${database}, rendered on every request, compressed as a browser asks (wrk, 1 thread, 20 connections, ${seconds} s; then a steady 200 req/s over 20 connections for ${seconds} s)`);
  for (const { throughput: t, atRate: a } of r.pages) {
    console.log(
      `  ${t.path.padEnd(44)} ${String(t.requestsPerSecond).padStart(5)} req/s (target ≥ 400) · at 200 req/s: p50 ${a.p50Ms} ms, p99 ${a.p99Ms} ms (target ≤ 50), ${a.errors} errors`,
    );
  }
  console.log(`  server RSS: ${r.rssMbBefore} MB before, ${r.rssMbAfter} MB after`);
}
