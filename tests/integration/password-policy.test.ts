// Better Auth's HTTP endpoints called as a script would call them: every one that sets a password
// refuses a weak one with the policy's own words, and changes nothing.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCatalog, type Catalog } from "../../server/catalog/index.ts";
import { user } from "../../server/db/schema.ts";
import { contentDir, databaseKinds, identitySuite, mailedResetToken, postToAuthEndpoint } from "./helpers.ts";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await loadCatalog(contentDir);
});

const strong = "velvet quarry lantern biscuit";
const weakAnswer = { code: "PASSWORD_TOO_WEAK", message: "Choose a stronger password. It is on the list of the most common passwords. Add more words that are less common." };

const address = (label: string) => `${label}-${randomBytes(4).toString("hex")}@example.com`;

describe.each(databaseKinds)("the password policy over HTTP on $name", ({ open }) => {
  const suite = identitySuite(open, () => catalog);

  const post = (path: string, body: unknown, cookie?: string) => postToAuthEndpoint(suite.identity, path, body, cookie);

  it("refuses sign-up with a common password and creates no account", async () => {
    const email = address("weak-signup");
    const answer = await post("/sign-up/email", { name: "Tanvi Desai", email, password: "password" });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject(weakAnswer);
    expect(await suite.db.select().from(user).where(eq(user.email, email))).toEqual([]);
  });

  it("refuses sign-up with the person's own name as the password", async () => {
    const answer = await post("/sign-up/email", { name: "Tanvi Desai", email: address("own-name"), password: "tanvidesai" });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain("It is made of your name, your e-mail address or the site's name.");
  });

  it("refuses a weak new password on change, and the old one still signs in", async () => {
    const email = address("weak-change");
    const created = await post("/sign-up/email", { name: "Tanvi Desai", email, password: strong });
    expect(created.status).toBe(200);
    const answer = await post("/change-password", { currentPassword: strong, newPassword: "12345678" }, created.cookie);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("PASSWORD_TOO_WEAK");
    expect((await post("/sign-in/email", { email, password: strong })).status).toBe(200);
  });

  it("refuses a weak new password on reset, and the link still works for a strong one", async () => {
    const email = address("weak-reset");
    expect((await post("/sign-up/email", { name: "Tanvi Desai", email, password: strong })).status).toBe(200);
    const token = await mailedResetToken(suite, email);
    const refused = await post("/reset-password", { token, newPassword: "aaaaaaaa" });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Choose a stronger password. Repeated characters like "aaa" are easy to guess. Add more words that are less common.');
    expect((await post("/sign-in/email", { email, password: strong })).status).toBe(200);
    expect((await post("/reset-password", { token, newPassword: "tanvidesai" })).body.message).toContain("It is made of your name");
    expect((await post("/reset-password", { token, newPassword: "marble otter cinnamon glacier" })).status).toBe(200);
  });
});
