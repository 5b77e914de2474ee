// A token is checked by one function for /api/v1 and for the invoice the CLI downloads
// (/invoices/:orderId): the same credential gets the same answer, words and headers on both.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../server/api/keys.ts";
import { clientIpHeader } from "../../server/auth/index.ts";
import { startTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const origin = "http://academy.test";

function get(path: string, authorization?: string) {
  const headers = new Headers(authorization ? { authorization } : {});
  return t.app.fetch(new Request(`${origin}${path}`, { headers }), { incoming: { socket: { remoteAddress: "10.30.0.1" } } });
}

async function person(): Promise<string> {
  const { user } = await t.identity.auth.api.signUpEmail({
    body: { name: "Bearer Bina", email: `bearer-${randomBytes(4).toString("hex")}@example.com`, password: "a good long password" },
    headers: new Headers({ [clientIpHeader]: `10.31.${randomBytes(2).join(".")}` }),
  });
  return user.id;
}

async function key(scopes: string[]): Promise<string> {
  return (await createApiKey(t.database.db, await person(), { name: "Script", scopes, lifetimeDays: 30 }, new Date())).secret;
}

/** What a client can tell apart in a refusal: status, body and the authentication and rate-limit headers. */
async function refusal(response: Response) {
  const pick = (name: string) => response.headers.get(name);
  return {
    status: response.status,
    // The seconds to wait may tick over between two requests.
    body: JSON.stringify(await response.json()).replaceAll(/\d+ seconds/g, "N seconds"),
    wwwAuthenticate: pick("www-authenticate"),
    retryAfter: pick("retry-after") === null ? null : "set",
    rateLimit: pick("ratelimit-limit"),
  };
}

const invoicePath = "/invoices/00000000-0000-4000-8000-000000000000";

describe("Bearer authentication on /api/v1 and on the invoice", () => {
  it("refuses a missing token alike", async () => {
    const api = await refusal(await get("/api/v1/me"));
    expect(api.status).toBe(401);
    expect(await refusal(await get(invoicePath))).toEqual(api);
  });

  it("tells a token that is no longer valid to sign in again, on both", async () => {
    const api = await refusal(await get("/api/v1/me", "Bearer acd_not-a-key-any-more"));
    expect(api).toMatchObject({ status: 401, wwwAuthenticate: 'Bearer realm="academy"' });
    expect(api.body).toContain("This token is not valid any more. Run academy login to sign in again.");
    expect(await refusal(await get(invoicePath, "Bearer acd_not-a-key-any-more"))).toEqual(api);
  });

  it("refuses a key without the read scope with the same words", async () => {
    const secret = await key(["notes:write"]);
    const api = await refusal(await get("/api/v1/me", `Bearer ${secret}`));
    expect(api.status).toBe(403);
    const invoice = await refusal(await get(invoicePath, `Bearer ${secret}`));
    expect({ ...invoice, rateLimit: null }).toEqual({ ...api, rateLimit: null });
  });

  it("says when to try again once the key's requests are used up, on both", async () => {
    const secret = await key(["read"]);
    for (let i = 0; i < t.deps.apiRateLimit; i++) expect((await get("/api/v1/me", `Bearer ${secret}`)).status).toBe(200);
    const api = await refusal(await get("/api/v1/me", `Bearer ${secret}`));
    expect(api).toMatchObject({ status: 429, retryAfter: "set", rateLimit: String(t.deps.apiRateLimit) });
    expect(await refusal(await get(invoicePath, `Bearer ${secret}`))).toEqual(api);
  });
});
