import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNote } from "../../server/notes/index.ts";
import { freshConfig, paidHostingOrder, personWithKey, runCli, serveTestApp, sourceCli, type ServedApp } from "./cli-run.ts";

let served: ServedApp;
let env: NodeJS.ProcessEnv;
let order: Awaited<ReturnType<typeof paidHostingOrder>>;
const longTitle = `A long title that a table on an eighty-column terminal would have cut short ${"and more ".repeat(6)}end`;
const noteIds: string[] = [];

beforeAll(async () => {
  served = await serveTestApp();
  const person = await personWithKey(served.t, ["read", "notes:write"], "Output Omar");
  for (const title of ["First", "Second", longTitle]) noteIds.push((await createNote(served.t.database.db, served.t.identity.cipher, served.t.catalog, person.id, { title, body: `${title} body` })).id);
  order = await paidHostingOrder(served.t, person.id);
  env = { XDG_CONFIG_HOME: await freshConfig(), ACADEMY_URL: served.url, ACADEMY_TOKEN: person.key };
});
afterAll(() => served.close());

const academy = (...args: string[]) => runCli(sourceCli, args, env);

describe("the CLI's output for scripts", () => {
  it("prints only the fields named after --json, and names the fields there are for one that is not", async () => {
    const titles = await academy("notes", "--json", "title");
    expect(titles.code, titles.stderr).toBe(0);
    expect(JSON.parse(titles.stdout)).toEqual({ notes: [{ title: longTitle }, { title: "Second" }, { title: "First" }] });
    expect(JSON.parse((await academy("whoami", "--json", "email,name")).stdout)).toEqual({ email: expect.stringContaining("@example.com"), name: "Output Omar" });
    // --json before the command, and --json=fields, work as well; a lone --json leaves the next word alone.
    expect(JSON.parse((await academy("courses", "--json=id", "--limit", "1")).stdout)).toEqual({ courses: [{ id: expect.any(String) }] });
    expect((JSON.parse((await academy("--json", "notes")).stdout) as { notes: unknown[] }).notes).toHaveLength(3);

    const wrong = await academy("notes", "--json", "title,colour");
    expect(wrong.code).toBe(2);
    expect(JSON.parse(wrong.stderr)).toEqual({ error: { message: 'There is no JSON field "colour" here. Choose from: id, title, body, courseId, lessonId, createdAt, updatedAt.', exitCode: 2 } });
  });

  it("writes errors as JSON on stderr when --json is given", async () => {
    const missing = await academy("notes", "show", "00000000-0000-0000-0000-000000000000", "--json");
    expect(missing.code).toBe(4);
    expect(missing.stdout).toBe("");
    expect(JSON.parse(missing.stderr)).toEqual({ error: { message: "We could not find that note.", exitCode: 4 } });
    const typo = await academy("--json", "notse");
    expect(typo.code).toBe(2);
    expect(JSON.parse(typo.stderr)).toEqual({ error: { message: "unknown command 'notse'\n(Did you mean notes?)", exitCode: 2 } });
    const limit = await academy("notes", "--limit", "0", "--json");
    expect(limit.code).toBe(2);
    expect((JSON.parse(limit.stderr) as { error: { message: string } }).error.message).toContain("Give a whole number from 1, like --limit 10.");
  });

  it("pipes tables as tab-separated lines, identifiers last and nothing cut; --limit shortens lists", async () => {
    const piped = await academy("notes");
    expect(piped.stdout.split("\n")).toEqual(["UPDATED\tTITLE\tID", expect.stringMatching(new RegExp(`^\\d{4}-\\d\\d-\\d\\d\\t${longTitle}\\t${noteIds[2]}$`)), expect.stringMatching(/\tSecond\t/), expect.stringMatching(/\tFirst\t/), ""]);
    const orders = await academy("orders");
    expect(orders.stdout.split("\n")[0]).toBe("DATE\tTOTAL\tSTATUS\tWHAT\tNUMBER\tID");
    expect(orders.stdout.split("\n")[1]).toMatch(new RegExp(`\\tpaid\\t.+\\tACD-\\d+\\t${order.orderId}$`));
    expect((await academy("notes", "--limit", "2")).stdout.trim().split("\n")).toHaveLength(3);
  });

  it("fits a terminal's table to COLUMNS, shortening the title and never the identifier", async () => {
    // `script` gives the CLI a terminal of its own.
    const shell = `COLUMNS=70 ${sourceCli.join(" ")} notes`;
    const { stdout } = await promisify(execFile)("script", ["-qec", shell, "/dev/null"], { env: { ...process.env, ...env, NO_COLOR: "1" } });
    const lines = stdout.replaceAll("\r", "").trim().split("\n");
    expect(lines[0]).toMatch(/^UPDATED\s+TITLE\s+ID$/);
    const long = lines.find((line) => line.includes("A long title")) ?? "";
    expect(long.length).toBeLessThanOrEqual(70);
    expect(long).toContain("…");
    expect(long.endsWith(noteIds[2] ?? "-")).toBe(true);
  });

  it("takes an order's number and a website's domain where it takes their ids", async () => {
    const { orders } = JSON.parse((await academy("orders", "--json", "number")).stdout) as { orders: { number: string }[] };
    const number = orders[0]?.number ?? "";
    const receipt = await academy("receipts", number, "--json", "number");
    expect(receipt.code, receipt.stderr).toBe(0);
    expect(JSON.parse(receipt.stdout)).toEqual({ number });
    const html = await academy("receipts", number.toLowerCase(), "--html");
    expect(html.stdout).toContain(`<title>Tax invoice ${number}</title>`);
    const site = await academy("websites", "show", order.domain, "--json", "id,domain");
    expect(JSON.parse(site.stdout)).toEqual({ id: order.websiteId, domain: order.domain });
    expect(await academy("receipts", "ACD-999999")).toMatchObject({ code: 4, stderr: 'Error: You have no order "ACD-999999". Run academy orders for their numbers.\n' });
    expect((await academy("websites", "show", "nowhere.example.in")).code).toBe(4);
  });

  it("filters JSON with --jq, as jq does, strings as text; a filter jq refuses is exit 2 in jq's words", async () => {
    const titles = await academy("notes", "--jq", ".notes[].title");
    expect(titles.code, titles.stderr).toBe(0);
    expect(titles.stdout).toBe(`${longTitle}\nSecond\nFirst\n`);
    // After --json fields, on one object, and with jq's own functions.
    expect((await academy("notes", "--json", "title", "--jq", ".notes | map(.title | length) | add")).stdout).toBe(`${longTitle.length + "Second".length + "First".length}\n`);
    expect((await academy("whoami", "--jq", "{name}")).stdout).toBe('{\n  "name": "Output Omar"\n}\n');
    expect((await academy("notes", "--jq", '.notes[] | select(.title == "Nothing")')).stdout).toBe("");
    const refused = await academy("notes", "--jq", ".notes[] |||");
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    // --jq implies --json, so the error is JSON on stderr too.
    expect((JSON.parse(refused.stderr) as { error: { message: string } }).error.message).toMatch(/^The --jq filter ".notes\[\] \|\|\|" failed: syntax error, unexpected '\|'/);
    const failed = await academy("notes", "--jq", ".notes[0].title | tonumber");
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain("failed: Invalid numeric literal");
    // academy api's answer goes through it too.
    expect((await academy("api", "GET", "/notes", "--jq", ".notes | length")).stdout).toBe("3\n");
  });

  it("sorts lists by a field with --sort (and --desc), before --limit cuts them", async () => {
    const titles = async (...args: string[]) => (await academy("notes", ...args, "--jq", ".notes[].title")).stdout.trim().split("\n");
    expect(await titles("--sort", "title")).toEqual([longTitle, "First", "Second"]);
    expect(await titles("--sort", "title", "--desc")).toEqual(["Second", "First", longTitle]);
    expect(await titles("--sort", "title", "--limit", "1")).toEqual([longTitle]);
    const prices = JSON.parse((await academy("courses", "--sort", "price", "--desc", "--jq", "[.courses[].price.amount]")).stdout) as number[];
    expect(prices.length).toBeGreaterThan(1);
    expect(prices).toEqual(prices.toSorted((a, b) => b - a));
    expect(await academy("notes", "--sort", "colour")).toMatchObject({ code: 2, stderr: 'Error: There is no field "colour" to sort by. Choose from: id, title, body, courseId, lessonId, createdAt, updatedAt.\n' });
    expect(await academy("notes", "--desc")).toMatchObject({ code: 2, stderr: "Error: --desc turns a --sort around: give the field too, like --sort title --desc.\n" });
  });

  it("filters lists: notes by text or course, orders by status and kind, websites by state, courses by text or enrolment", async () => {
    expect((await academy("notes", "--search", "SECOND", "--jq", ".notes[].title")).stdout).toBe("Second\n");
    expect((await academy("notes", "--search", "first body")).stdout).toMatch(/^UPDATED\tTITLE\tID\n\S+\tFirst\t/);
    expect((await academy("notes", "--course", "react-fundamentals")).stdout).toBe("None of your notes is like that.\n");
    expect((await academy("orders", "--status", "paid", "--kind", "website", "--jq", ".orders[].id")).stdout).toBe(`${order.orderId}\n`);
    expect((await academy("orders", "--status", "refunded")).stdout).toBe("None of your orders is like that.\n");
    const wrong = await academy("orders", "--status", "done");
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("Allowed choices are created, paid, failed, cancelled, refunded.");
    const { websites } = JSON.parse((await academy("websites", "--json", "state")).stdout) as { websites: { state: string }[] };
    const state = websites[0]?.state ?? "";
    expect((await academy("websites", "--state", state, "--jq", ".websites[].domain")).stdout).toBe(`${order.domain}\n`);
    const other = state === "expired" ? "active" : "expired";
    expect((await academy("websites", "--state", other)).stdout).toBe(`None of your websites is ${other}.\n`);
    const react = JSON.parse((await academy("courses", "--search", "react", "--jq", '[.courses[] | .title + " " + .summary]')).stdout) as string[];
    expect(react.length).toBeGreaterThan(0);
    expect(react.every((text) => /react/i.test(text))).toBe(true);
    expect((await academy("courses", "--enrolled")).stdout).toBe("You are not enrolled in a course yet.\n");
    expect((await academy("progress", "--unfinished")).stdout).toBe("You are not enrolled in a course yet. Browse them with academy courses.\n");
  });
});
