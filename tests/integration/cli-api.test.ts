import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliToken, configWithLogins, freshConfig, personWithKey, runCli, serveTestApp, sourceCli, type ServedApp } from "./cli-run.ts";

let served: ServedApp;
beforeAll(async () => {
  served = await serveTestApp();
});
afterAll(() => served.close());

describe("academy api", () => {
  it("sends any request with the stored login, prints the JSON answer and exits by its status", async () => {
    const person = await personWithKey(served.t, ["read"], "Api Anika");
    const env = { ACADEMY_URL: served.url, XDG_CONFIG_HOME: await configWithLogins([{ server: served.url, token: await cliToken(served, person.id), email: person.email }]) };
    const academy = (args: string[], input?: string) => runCli(sourceCli, ["api", ...args], env, input);

    const me = await academy(["GET", "/me"]);
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({ name: "Api Anika", email: person.email });

    const added = await academy(["POST", "/notes", "--field", "title=Hooks", "-f", "body=useEffect runs after paint"]);
    expect(added.code, added.stderr).toBe(0);
    const note = JSON.parse(added.stdout) as { id: string; title: string; body: string };
    expect(note).toMatchObject({ title: "Hooks", body: "useEffect runs after paint" });
    await academy(["POST", "notes", "--field", "title=Second", "--field", "body=more"]);
    expect((JSON.parse((await academy(["get", "/api/v1/notes", "--field", "limit=1"])).stdout) as { notes: unknown[] }).notes).toHaveLength(1);

    const patched = await academy(["PATCH", `/notes/${note.id}`, "--input", "-"], JSON.stringify({ title: "Hooks, revised", body: "useEffect runs after paint" }));
    expect(JSON.parse(patched.stdout)).toMatchObject({ id: note.id, title: "Hooks, revised" });

    expect(await academy(["DELETE", `/notes/${note.id}`])).toMatchObject({ code: 0, stdout: "" });
    const gone = await academy(["GET", `/notes/${note.id}`]);
    expect(gone.code).toBe(4);
    expect(JSON.parse(gone.stdout)).toEqual({ error: { code: "not_found", message: "We could not find that note." } });
    expect(gone.stderr).toBe(`GET /api/v1/notes/${note.id} answered 404.\n`);
  });

  it("uses a key from ACADEMY_TOKEN, sends nothing without one, and refuses what is not a request", async () => {
    const person = await personWithKey(served.t, ["read"]);
    const config = await freshConfig();
    const withKey = await runCli(sourceCli, ["api", "POST", "/notes", "-f", "title=x", "-f", "body=y"], { ACADEMY_URL: served.url, XDG_CONFIG_HOME: config, ACADEMY_TOKEN: person.key });
    expect(withKey.code).toBe(1);
    expect(withKey.stdout).toContain('it needs the \\"notes:write\\" scope');
    const signedOut = await runCli(sourceCli, ["api", "GET", "/me"], { ACADEMY_URL: served.url, XDG_CONFIG_HOME: config });
    expect(signedOut.code).toBe(3);
    expect((await runCli(sourceCli, ["api", "GET", "/openapi.json"], { ACADEMY_URL: served.url, XDG_CONFIG_HOME: config })).code).toBe(0);
    expect(await runCli(sourceCli, ["api", "FETCH", "/me"], { ACADEMY_URL: served.url })).toMatchObject({ code: 2, stderr: 'Error: "FETCH" is not a method the API takes: use GET, POST, PUT, PATCH, DELETE.\n' });
    expect((await runCli(sourceCli, ["api", "POST", "/notes", "--field", "title"], { ACADEMY_URL: served.url })).code).toBe(2);
  });
});
