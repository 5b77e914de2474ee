// The HTTP layer's own refusals and failures reach a browser as the site's page (header, stylesheet
// inlined under the CSP nonce, a way home, the right status), and reach scripts as one sentence.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientIpHeader } from "../../server/auth/index.ts";
import { startTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
// The last test closes the database itself.
afterAll(() => t.close().catch(() => undefined));

const origin = "http://academy.test";
const browser = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };

function send(path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set(clientIpHeader, `10.12.${randomBytes(2).join(".")}`);
  return t.app.fetch(new Request(`${origin}${path}`, { ...init, headers, redirect: "manual" }));
}

/** The answer is the site's page: header, the stylesheet inlined with the CSP's nonce, the heading, and a link home. */
async function expectSitePage(response: Response, status: number, heading: string, sentence: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toContain("text/html");
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
  const html = await response.text();
  expect(html).toContain("<header");
  expect(html).toMatch(new RegExp(`<style nonce="${nonce}">[^<]*\\.sticky\\{`));
  expect(/<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1]).toBe(heading);
  expect(html).toContain(sentence);
  expect(html).toMatch(/<a [^>]*href="\/"[^>]*>Go to the home page<\/a>/);
}

const bigPhoto = () => {
  const form = new FormData();
  form.set("intent", "photo");
  form.set("photo", new File([new Uint8Array(3_400_000)], "holiday.png", { type: "image/png" }));
  return form;
};

describe("the HTTP layer's error pages", () => {
  it("413: a body over the limit gets the site's page in a browser, and the sentence alone elsewhere", async () => {
    const sentence = "Nothing was uploaded: files can be at most 2 MB. Go back and choose a smaller one.";
    await expectSitePage(await send("/profile", { method: "POST", headers: { ...browser, origin }, body: bigPhoto() }), 413, "That upload is too large", sentence);
    const script = await send("/profile", { method: "POST", headers: { origin }, body: bigPhoto() });
    expect(script.status).toBe(413);
    expect(await script.text()).toBe(sentence);
  });

  it("403: a form from another site gets the site's page saying nothing was changed", async () => {
    const response = await send("/logout", { method: "POST", headers: { ...browser, origin: "http://elsewhere.test" }, body: new URLSearchParams() });
    await expectSitePage(response, 403, "That request was refused", "This form was sent from another site, so nothing was changed.");
  });

  it("415: a form in a format no browser sends gets the site's page", async () => {
    const response = await send("/logout", { method: "POST", headers: { ...browser, origin, "content-type": "application/json" }, body: "{}" });
    await expectSitePage(response, 415, "We could not read that request", "Forms are accepted only as a web form");
  });

  it("503: a page whose database cannot be reached gets the site's page saying the fault is ours and when to try again", async () => {
    const created = await t.identity.auth.api.signUpEmail({
      body: { name: "Unlucky Learner", email: `unlucky-${randomBytes(4).toString("hex")}@example.com`, password: "velvet quarry lantern biscuit" },
      asResponse: true,
    });
    const cookie = created.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    await t.database.close();
    const response = await send("/account", { headers: { ...browser, cookie } });
    await expectSitePage(response, 503, "Something went wrong on our side", "Our database cannot be reached just now, so this page cannot be shown. Please try again in a minute.");
  });
});
