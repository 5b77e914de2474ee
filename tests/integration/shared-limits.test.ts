// Each limit is written once (common/limits.ts): the page's form, the domain and the API refuse at
// the same boundary, and say the same number.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nameLength, noteLength, passwordLength, profilePhoto } from "../../common/limits.ts";
import { createApiKey } from "../../server/api/keys.ts";
import { clientIpHeader } from "../../server/auth/index.ts";
import { processProfilePhoto } from "../../server/users/profile-photo.ts";
import { startTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const send = (path: string, init: RequestInit = {}) => t.app.fetch(new Request(`http://academy.test${path}`, init), { incoming: { socket: { remoteAddress: "10.60.0.1" } } });
const json = (body: unknown, headers: Record<string, string> = {}) => ({ method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

async function notesKey(): Promise<string> {
  const { user } = await t.identity.auth.api.signUpEmail({
    body: { name: "Limit Lalitha", email: `limits-${randomBytes(4).toString("hex")}@example.com`, password: "a good long password" },
    headers: new Headers({ [clientIpHeader]: `10.61.${randomBytes(2).join(".")}` }),
  });
  return (await createApiKey(t.database.db, user.id, { name: "Notes", scopes: ["notes:write"], lifetimeDays: 30 }, new Date())).secret;
}

describe("limits written once", () => {
  it("takes a note of exactly the longest title and body through the API, and refuses one character more", async () => {
    const authorization = `Bearer ${await notesKey()}`;
    expect((await send("/api/v1/notes", json({ title: "t".repeat(noteLength.title), body: "b".repeat(noteLength.body) }, { authorization }))).status).toBe(201);
    expect((await send("/api/v1/notes", json({ title: "t".repeat(noteLength.title + 1), body: "b" }, { authorization }))).status).toBe(400);
    expect((await send("/api/v1/notes", json({ title: "", body: "b".repeat(noteLength.body + 1) }, { authorization }))).status).toBe(400);
  });

  it("documents the note limits in the OpenAPI document", async () => {
    const doc = (await (await send("/api/v1/openapi.json")).json()) as { components: { schemas: Record<string, { properties: Record<string, { maxLength?: number }> }> } };
    expect(doc.components.schemas.NoteEdit?.properties.title?.maxLength).toBe(noteLength.title);
    expect(doc.components.schemas.NoteEdit?.properties.body?.maxLength).toBe(noteLength.body);
  });

  it("refuses at sign-up a password one character longer than the form allows", async () => {
    const signUp = (password: string) =>
      send("/api/auth/sign-up/email", json({ name: "Limit Lalitha", email: `limits-${randomBytes(4).toString("hex")}@example.com`, password }));
    expect((await signUp("correct horse battery staple ".repeat(10).slice(0, passwordLength.max + 1))).status).toBe(400);
    const page = await (await send("/login?mode=signup")).text();
    const input = (name: string) => page.match(/<input [^>]*>/g)?.find((tag) => tag.includes(` name="${name}"`)) ?? "";
    expect(input("password")).toContain(`minLength="${passwordLength.min}"`);
    expect(input("password")).toContain(`maxLength="${passwordLength.max}"`);
    expect(input("name")).toContain(`maxLength="${nameLength.max}"`);
  });

  it("refuses a name one character longer than the form allows", async () => {
    const response = await send("/api/auth/sign-up/email", json({ name: "n".repeat(nameLength.max + 1), email: `limits-${randomBytes(4).toString("hex")}@example.com`, password: "a good long password" }));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe(`Keep your name under ${nameLength.max} characters.`);
  });

  it("refuses a photo one byte over the limit the profile page states, and reads one at the limit", async () => {
    await expect(processProfilePhoto(Buffer.alloc(profilePhoto.maxBytes + 1))).rejects.toThrow(`That photo is larger than ${profilePhoto.maxMegabytes} MB.`);
    await expect(processProfilePhoto(Buffer.alloc(profilePhoto.maxBytes))).rejects.toThrow("That file is not a JPEG, PNG or WebP image.");
  });
});
