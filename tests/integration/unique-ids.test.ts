// An id repeated on a page sends in-page links and aria references to the wrong element.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const publicPages = [
  "/", "/courses", "/course/webdevfrontendcourse", "/course/webdevfrontendcourse/feedback", "/services", "/service/website-hosting", "/team",
  "/portfolio", "/help", "/help/account-and-security", "/help/courses-and-learning", "/privacy", "/terms", "/shipping", "/cancellation-refund", "/cookies", "/login",
];

describe("element ids", () => {
  it.each(publicPages)("are unique on %s", async (path) => {
    const response = await t.app.fetch(new Request(`http://academy.test${path}`));
    expect(response.status).toBe(200);
    const ids = [...(await response.text()).matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
    expect(repeated).toEqual([]);
  });
});
