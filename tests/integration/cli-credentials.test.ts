import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliToken, configWithLogins, freshConfig, personWithKey, runCli, serveTestApp, sourceCli, type ServedApp } from "./cli-run.ts";

let served: ServedApp;
beforeAll(async () => {
  served = await serveTestApp();
});
afterAll(() => served.close());

/** A port nothing listens on: the server there cannot be reached. */
const nowhere = "http://127.0.0.1:9";
const academy = (args: string[], env: NodeJS.ProcessEnv, input?: string) => runCli(sourceCli, args, { ACADEMY_URL: served.url, ...env }, input);

describe("the CLI's credentials for scripts", () => {
  it("uses an API key from ACADEMY_TOKEN or --token instead of a login, with the key's scopes", async () => {
    const person = await personWithKey(served.t, ["read"]);
    const config = await freshConfig();
    const viaEnv = await academy(["whoami", "--json"], { XDG_CONFIG_HOME: config, ACADEMY_TOKEN: person.key });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    expect(JSON.parse(viaEnv.stdout)).toMatchObject({ email: person.email, name: "Script Sanjay" });
    const viaOption = await academy(["whoami", "--token", person.key], { XDG_CONFIG_HOME: config });
    expect(viaOption).toMatchObject({ code: 0, stdout: `Script Sanjay <${person.email}> on ${served.url}\n` });

    // A read-only key may not write a note: the API's words, exit 1.
    const write = await academy(["notes", "add", "--title", "Nope"], { XDG_CONFIG_HOME: config, ACADEMY_TOKEN: person.key }, "text\n");
    expect(write.code).toBe(1);
    expect(write.stderr).toContain('This key may not do that: it needs the "notes:write" scope.');

    const wrong = await academy(["notes"], { XDG_CONFIG_HOME: config, ACADEMY_TOKEN: "acd_not-a-key" });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toBe(`Error: ${served.url} refused the token in ACADEMY_TOKEN: it is wrong, revoked or expired. Make a new API key on ${served.url}/api-tools.\n`);
  });

  it("lists the public catalogue without any token", async () => {
    const config = await freshConfig();
    const listed = await academy(["courses", "--json"], { XDG_CONFIG_HOME: config });
    expect(listed.code, listed.stderr).toBe(0);
    const { courses } = JSON.parse(listed.stdout) as { courses: { id: string; enrolled: boolean }[] };
    expect(courses.length).toBeGreaterThan(0);
    expect(courses.every((c) => !c.enrolled)).toBe(true);
    const one = await academy(["courses", "show", courses[0]?.id ?? ""], { XDG_CONFIG_HOME: config });
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain("Not enrolled.");
    // What is not public still asks for a sign-in.
    expect((await academy(["progress"], { XDG_CONFIG_HOME: config })).code).toBe(3);
  });

  it("auth status lists each server and who is signed in on it, as each server says now", async () => {
    expect(await academy(["auth", "status"], { XDG_CONFIG_HOME: await freshConfig() })).toMatchObject({
      code: 3,
      stderr: "Error: You are not signed in to any server. Run academy login, or give an API key with ACADEMY_TOKEN or --token.\n",
    });

    const person = await personWithKey(served.t, ["read"], "Status Sita");
    const token = await cliToken(served, person.id);
    const config = await configWithLogins([
      { server: served.url, token, email: person.email },
      { server: nowhere, token: "acli_elsewhere", email: "sita@elsewhere.example" },
    ]);
    const human = await academy(["auth", "status"], { XDG_CONFIG_HOME: config });
    expect(human.code).toBe(1);
    expect(human.stdout).toBe(
      [
        served.url,
        `  ✓ Signed in as Status Sita <${person.email}> (academy login)`,
        nowhere,
        `  ✗ Not checked: could not reach ${nowhere} (token from academy login)`,
        `Logins are kept in ${path.join(config, "academy/credentials.json")}.`,
        "",
      ].join("\n"),
    );

    const withKey = await academy(["auth", "status", "--json"], { XDG_CONFIG_HOME: await configWithLogins([{ server: served.url, token, email: person.email }]), ACADEMY_TOKEN: person.key });
    expect(withKey.code).toBe(0);
    expect((JSON.parse(withKey.stdout) as { servers: unknown[] }).servers).toEqual([
      { server: served.url, source: "ACADEMY_TOKEN", signedIn: true, name: "Status Sita", email: person.email },
      { server: served.url, source: "login", signedIn: true, name: "Status Sita", email: person.email },
    ]);
  });

  it("logout ends the session on the server, and removes the local token even when the server cannot be reached", async () => {
    const person = await personWithKey(served.t, ["read"], "Leaving Lata");
    const token = await cliToken(served, person.id);
    const config = await configWithLogins([
      { server: served.url, token, email: person.email },
      { server: nowhere, token: "acli_elsewhere", email: person.email },
    ]);
    const file = path.join(config, "academy/credentials.json");

    const away = await academy(["logout", "--server", nowhere], { XDG_CONFIG_HOME: config });
    expect(away).toMatchObject({
      code: 0,
      stdout: `Signed out on this machine (its token is deleted), but could not reach ${nowhere}: that session lasts until you sign it out in Settings → Signed-in devices.\n`,
    });
    expect(Object.keys(JSON.parse(await readFile(file, "utf8")) as object)).toEqual([served.url]);

    const out = await academy(["logout", "--json"], { XDG_CONFIG_HOME: config });
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ signedIn: false, server: served.url, endedOnServer: true });
    // The token no longer works anywhere, and nothing is left on this machine.
    expect((await fetch(`${served.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    await expect(readFile(file, "utf8")).rejects.toThrow(/ENOENT/);
    expect(await academy(["logout"], { XDG_CONFIG_HOME: config })).toMatchObject({ code: 0, stdout: `You were not signed in to ${served.url}.\n` });
  });
});
