import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "./helpers.ts";
import { cliToken, configWithLogins, freshConfig, paidHostingOrder, personWithKey, runCli, serveTestApp, sourceCli, type ServedApp } from "./cli-run.ts";

/** A --json shape as docs/cli.md writes it: `{ id, price: { amount }, notes: [{ id }] }`; a leaf is null. */
type Shape = null | { [key: string]: Shape } | Shape[];

function parseShape(text: string): Shape {
  const tokens = text.match(/[{}[\]:,]|[\w-]+/g) ?? [];
  let at = 0;
  const value = (): Shape => {
    const token = tokens[at++];
    if (token === "[") {
      const item = value();
      at++; // ]
      return [item];
    }
    if (token !== "{") return null;
    const object: { [key: string]: Shape } = {};
    while (tokens[at] !== "}") {
      const key = tokens[at++] ?? "";
      object[key] = tokens[at] === ":" ? (at++, value()) : null;
      if (tokens[at] === ",") at++;
    }
    at++; // }
    return object;
  };
  return value();
}

/** The documented shape of each command in the table of docs/cli.md's "--json output". */
async function documentedShapes(): Promise<Map<string, Shape>> {
  const doc = await readFile(path.join(projectRoot, "docs/cli.md"), "utf8");
  const shapes = new Map<string, Shape>();
  for (const [, command = "", shape = ""] of doc.matchAll(/^\| `([^`]+)`[^|]*\| `(\{[^`]+\})`/gm)) shapes.set(command, parseShape(shape));
  return shapes;
}

/** The fields printed are the fields documented, at every level where both have them. */
function expectShape(value: unknown, shape: Shape, where: string): void {
  if (shape === null || value === null || value === undefined) return;
  if (Array.isArray(shape)) {
    expect(Array.isArray(value), where).toBe(true);
    for (const item of value as unknown[]) expectShape(item, shape[0] ?? null, `${where}[]`);
    return;
  }
  expect(Object.keys(value as object).toSorted(), where).toEqual(Object.keys(shape).toSorted());
  for (const [key, inner] of Object.entries(shape)) expectShape((value as Record<string, unknown>)[key], inner, `${where}.${key}`);
}

let served: ServedApp;
beforeAll(async () => {
  served = await serveTestApp();
});
afterAll(() => served.close());

describe("docs/cli.md's --json table", () => {
  it("names every field each command prints with --json, and no other", { timeout: 120_000 }, async () => {
    const shapes = await documentedShapes();
    const shape = (command: string) => {
      expect(shapes.has(command), command).toBe(true);
      return shapes.get(command) ?? null;
    };
    const item = (command: string, list: string) => ((shape(command) as Record<string, Shape[]>)[list] ?? [])[0] ?? null;
    const person = await personWithKey(served.t, ["read", "notes:write"], "Contract Chitra");
    const { orderId, websiteId } = await paidHostingOrder(served.t, person.id);
    const config = await freshConfig();
    const env = { XDG_CONFIG_HOME: config, ACADEMY_URL: served.url, ACADEMY_TOKEN: person.key };
    const json = async (args: string[], input = "") => {
      const run = await runCli(sourceCli, [...args, "--json"], env, input);
      expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(0);
      return JSON.parse(run.stdout) as unknown;
    };

    const note = (await json(["notes", "add", "--title", "Shape"], "body\n")) as { id: string };
    const courses = (await json(["courses"])) as { courses: { id: string }[] };
    const checks: [unknown, Shape, string][] = [
      [await json(["whoami"]), shape("whoami"), "whoami"],
      [courses, shape("courses [list]"), "courses"],
      [await json(["courses", "show", courses.courses[0]?.id ?? ""]), item("courses [list]", "courses"), "courses show"],
      [await json(["progress"]), shape("progress"), "progress"],
      [await json(["notes"]), shape("notes [list]"), "notes"],
      [await json(["notes", "export"]), shape("notes [list]"), "notes export"],
      [await json(["notes", "show", note.id]), item("notes [list]", "notes"), "notes show"],
      [note, item("notes [list]", "notes"), "notes add"],
      [await json(["notes", "rm", note.id]), shape("notes rm <id>"), "notes rm"],
      [await json(["orders"]), shape("orders"), "orders"],
      [await json(["receipts", orderId]), shape("receipts <order>"), "receipts"],
      [await json(["receipts", orderId, "--html", "-o", path.join(config, "invoice.html")]), shape("receipts <order> --html -o F"), "receipts --html"],
      [await json(["websites"]), shape("websites [list]"), "websites"],
      [await json(["websites", "show", websiteId]), { ...(item("websites [list]", "websites") as object), periods: [parseShape("{ plan, startsAt, endsAt, orderNumber }")] }, "websites show"],
      [await json(["auth", "status"]), shape("auth status"), "auth status"],
    ];
    for (const [value, documented, where] of checks) expectShape(value, documented, where);

    const loggedIn = { XDG_CONFIG_HOME: await configWithLogins([{ server: served.url, token: await cliToken(served, person.id), email: person.email }]), ACADEMY_URL: served.url };
    const logout = await runCli(sourceCli, ["logout", "--json"], loggedIn);
    expectShape(JSON.parse(logout.stdout), shape("logout"), "logout");
  });
});
