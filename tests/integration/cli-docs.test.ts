import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshConfig, paidHostingOrder, personWithKey, runCli, serveTestApp, sourceCli, type ServedApp } from "./cli-run.ts";
import { projectRoot } from "./helpers.ts";

let served: ServedApp;
beforeAll(async () => {
  served = await serveTestApp();
});
afterAll(() => served.close());

/**
 * Every academy command docs/cli.md shows, in its code spans and its shell blocks, as typed:
 * `source <(academy completion bash)` is the command in the brackets, a redirect or comment is not.
 */
async function documentedCommands(): Promise<string[]> {
  const doc = await readFile(path.join(projectRoot, "docs/cli.md"), "utf8");
  // Headings name commands; the text under them shows how they are typed.
  const text = doc.split("\n").filter((line) => !line.startsWith("#")).join("\n");
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? "");
  const blockLines = [...doc.matchAll(/```sh\n([^`]*)```/g)].flatMap((m) => (m[1] ?? "").split("\n"));
  const commands = [...spans, ...blockLines].map((line) => (/<\((academy [^)]+)\)/.exec(line)?.[1] ?? line).replace(/\s+(#|>).*$/, "").trim());
  return [...new Set(commands.filter((c) => /^(ACADEMY_TOKEN=\S+ )?academy \S/.test(c)))];
}

/** What each must do besides running: the typo is answered with the command it meant; login waits for a browser (tests/e2e/cli.spec.ts approves it). */
const expected: Record<string, { code: number; output?: string }> = {
  "academy notes lsit": { code: 2, output: "Did you mean academy notes list?" },
};

describe("docs/cli.md", () => {
  it("shows only commands that run as it says, with a key, against a server", { timeout: 120_000 }, async () => {
    const person = await personWithKey(served.t, ["read", "notes:write"], "Documented Dev");
    const { orderId, domain } = await paidHostingOrder(served.t, person.id);
    const listed = (await (await fetch(`${served.url}/api/v1/orders`, { headers: { authorization: `Bearer ${person.key}` } })).json()) as { orders: { number: string }[] };
    const number = listed.orders[0]?.number ?? "";
    const commands = await documentedCommands();
    expect(commands).toEqual(expect.arrayContaining(["academy --version", "academy auth status", "ACADEMY_TOKEN=acd_… academy notes --json", "academy completion fish", "ACADEMY_TOKEN=acd_… academy notes --jq '.notes[].title'"]));
    const env = { XDG_CONFIG_HOME: await freshConfig(), ACADEMY_URL: served.url, ACADEMY_TOKEN: person.key };
    for (const command of commands.filter((c) => c !== "academy login")) {
      // Words as a shell splits them: a quoted one ('.notes[].title') is one word, without its quotes.
      const words = (command.replace(/^ACADEMY_TOKEN=\S+ /, "").match(/'[^']*'|\S+/g) ?? []).slice(1).map((word) => word.replace(/^'(.*)'$/, "$1")).map((word) => word.replace("acd_…", person.key).replace("<order>", orderId).replace("ACD-000001", number).replace("example.in", domain));
      const ran = await runCli(sourceCli, words, env);
      const want = expected[command] ?? { code: 0 };
      expect(ran.code, `${command}: ${ran.stderr}`).toBe(want.code);
      if (want.output) expect(ran.stdout + ran.stderr).toContain(want.output);
    }
  });

  it("shows npm run --silent for the sources, which prints the command's output and nothing of npm's", async () => {
    const doc = await readFile(path.join(projectRoot, "docs/cli.md"), "utf8");
    expect(doc).toContain("`npm run --silent academy -- <command>`");
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_")));
    const { stdout } = await promisify(execFile)("npm", ["run", "--silent", "academy", "--", "--version"], { cwd: projectRoot, env: inherited });
    const { version } = JSON.parse(await readFile(path.join(projectRoot, "package.json"), "utf8")) as { version: string };
    expect(stdout).toBe(`${version}\n`);
  });
});
