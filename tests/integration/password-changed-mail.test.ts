// A changed password is told to the owner by mail, however it was changed, so a stranger's change
// does not go unnoticed; a refused change sends nothing.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCatalog, type Catalog } from "../../server/catalog/index.ts";
import { listMailbox } from "../../server/mail/outbox.ts";
import { contentDir, databaseKinds, identitySuite, mailedResetToken, postToAuthEndpoint } from "./helpers.ts";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await loadCatalog(contentDir);
});

const origin = "http://academy.test";
const first = "velvet quarry lantern biscuit";
const second = "marble otter cinnamon glacier";
const changedSubject = "Your Academy password was changed";

const address = (label: string) => `${label}-${randomBytes(4).toString("hex")}@example.com`;

describe.each(databaseKinds)("the password-changed mail on $name", ({ open }) => {
  const suite = identitySuite(open, () => catalog);

  const post = (path: string, body: unknown, cookie?: string) => postToAuthEndpoint(suite.identity, path, body, cookie);
  const changedMail = async (email: string) => (await listMailbox(suite.db, email)).filter((m) => m.subject === changedSubject);

  it("tells the owner when the password is changed in the settings, with a way to reset it if it was not them", async () => {
    const email = address("changed");
    const created = await post("/sign-up/email", { name: "Tanvi Desai", email, password: first });
    expect((await post("/change-password", { currentPassword: first, newPassword: second }, created.cookie)).status).toBe(200);
    const [mail, ...more] = await changedMail(email);
    expect(more).toEqual([]);
    expect(mail?.to).toBe(email);
    expect(mail?.text).toContain("Hi Tanvi Desai,");
    expect(mail?.text).toMatch(new RegExp(`The password of your Academy account \\(${email}\\) was changed on \\d{1,2} \\w{3} \\d{4}, \\d{1,2}:\\d{2} [ap]m India time, from your account settings\\.`));
    expect(mail?.text).toContain("If this was not you, reset your password now");
    expect(mail?.text).toContain(`Reset my password: ${origin}/forgot-password`);
    expect(mail?.text).toContain(`write to ${catalog.site.email} or call ${catalog.site.phone}`);
    expect(mail?.html).toContain(`href="${origin}/forgot-password"`);
    expect(mail?.html).toContain("If this was not you, reset your password now");
    expect(mail?.links).toEqual([`${origin}/forgot-password`]);
  });

  it("sends nothing when the change is refused", async () => {
    const email = address("refused");
    const created = await post("/sign-up/email", { name: "Tanvi Desai", email, password: first });
    expect((await post("/change-password", { currentPassword: "not the password at all", newPassword: second }, created.cookie)).status).toBe(400);
    expect((await post("/change-password", { currentPassword: first, newPassword: "12345678" }, created.cookie)).status).toBe(400);
    expect(await changedMail(email)).toEqual([]);
  });

  it("tells the owner when a reset link set a new password", async () => {
    const email = address("reset");
    expect((await post("/sign-up/email", { name: "Tanvi Desai", email, password: first })).status).toBe(200);
    const token = await mailedResetToken(suite, email);
    expect(await changedMail(email)).toEqual([]);
    expect((await post("/reset-password", { token, newPassword: second })).status).toBe(200);
    const [mail, ...more] = await changedMail(email);
    expect(more).toEqual([]);
    expect(mail?.text).toContain("with a password reset link.");
    expect(mail?.text).toContain(`Reset my password: ${origin}/forgot-password`);
  });
});
