import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, session } from "../../server/db/schema.ts";
import { paidCourseOrderRows } from "./helpers.ts";
import { cliToken, configWithLogins, freshConfig, paidHostingOrder, personWithKey, runCli, serveTestApp, sourceCli, type ServedApp } from "./cli-run.ts";

let served: ServedApp;
let person: Awaited<ReturnType<typeof personWithKey>>;
let env: NodeJS.ProcessEnv;
/** A web server that is not Academy: every answer is its welcome page. */
let webPage: Server;
let webPageUrl: string;

beforeAll(async () => {
  served = await serveTestApp();
  person = await personWithKey(served.t, ["read", "notes:write"], "Edge Esha");
  env = { XDG_CONFIG_HOME: await freshConfig(), ACADEMY_URL: served.url, ACADEMY_TOKEN: person.key };
  webPage = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Welcome to nginx!</title>"));
  await new Promise<void>((resolve) => webPage.listen(0, "127.0.0.1", resolve));
  webPageUrl = `http://127.0.0.1:${(webPage.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => webPage.close(() => resolve()));
  await served.close();
});

const academy = (args: string[], input = "") => runCli(sourceCli, args, env, input);
const noStackTrace = (stderr: string) => expect(stderr).not.toMatch(/^\s+at /m);

describe("the CLI's edges", () => {
  it("says in a sentence that a server answering web pages is not an Academy server", async () => {
    for (const args of [["courses"], ["whoami"], ["notes", "--json"]]) {
      const run = await academy([...args, "--server", webPageUrl]);
      expect(run.code, args.join(" ")).toBe(1);
      expect(run.stderr).toContain(`${webPageUrl} answered with a web page that is not the Academy API's JSON. Is ${webPageUrl} an Academy server?`);
      noStackTrace(run.stderr);
    }
  });

  it("says which folder is missing when -o names one that is not there", async () => {
    const { orderId } = await paidHostingOrder(served.t, person.id);
    const output = path.join(await freshConfig(), "no-such-folder", "invoice.html");
    const run = await academy(["receipts", orderId, "--html", "-o", output]);
    expect(run).toMatchObject({ code: 1, stderr: `Error: Could not write ${output}: there is no folder ${path.dirname(output)}. Create it, or choose another -o.\n` });
    const pdf = await academy(["receipts", orderId, "--pdf", "-o", output]);
    expect(pdf.stderr).toContain(`there is no folder ${path.dirname(output)}`);
  });

  it("refuses to delete a note twice and to save an empty note", async () => {
    const added = await academy(["notes", "add", "--title", "Once", "--json", "id"], "text\n");
    const { id } = JSON.parse(added.stdout) as { id: string };
    expect((await academy(["notes", "rm", id])).stdout).toContain(`Deleted note ${id}.`);
    const again = await academy(["notes", "rm", id]);
    expect(again.code).toBe(4);
    expect(again.stdout).toBe("");
    expect(again.stderr).toBe(`Error: There is no note ${id} to delete: it was deleted already (restore it on ${served.url}/notes within a day), or it is not yours.\n`);

    const before = (JSON.parse((await academy(["notes", "--json", "id"])).stdout) as { notes: unknown[] }).notes.length;
    for (const input of ["", "  \n\n"]) {
      const empty = await academy(["notes", "add", "--title", "Empty"], input);
      expect(empty).toMatchObject({ code: 2, stderr: "Error: The note is empty, so nothing was saved. Give its text in $EDITOR, with --file or on standard input.\n" });
    }
    expect((JSON.parse((await academy(["notes", "--json", "id"])).stdout) as { notes: unknown[] }).notes).toHaveLength(before);
  });

  it("writes the receipt's GST with its paise, as the invoice does", async () => {
    await served.t.database.db.insert(orders).values(paidCourseOrderRows(person.id, "react-fundamentals", 1, { keyPrefix: `cli-edge-${person.id}-`, createdAt: () => new Date() }));
    const listed = JSON.parse((await academy(["orders", "--json", "number,title,total"])).stdout) as { orders: { number: string; total: { amount: number } }[] };
    const course = listed.orders.find((o) => o.total.amount === 699_900);
    const receipt = await academy(["receipts", course?.number ?? ""]);
    expect(receipt.code, receipt.stderr).toBe(0);
    expect(receipt.stdout).toContain("Total ₹6,999 (GST ₹1,067.64)");
  });

  it("prints each HTTP request and its answer with --debug, never the token", async () => {
    const run = await academy(["whoami", "--debug"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(new RegExp(`^> GET ${served.url}/api/v1/me \\(with a token\\)\\n< 200 OK application/json\\S* in \\d+ ms\\n$`));
    expect(run.stderr).not.toContain(person.key);
    const away = await runCli(sourceCli, ["courses", "--debug", "--server", "http://127.0.0.1:9"], { XDG_CONFIG_HOME: await freshConfig() });
    expect(away.stderr).toMatch(/^> GET http:\/\/127\.0\.0\.1:9\/api\/v1\/courses\n< no answer: .+\nError: Could not reach/);
  });

  it("says a revoked login is not valid any more in the same words for receipts --html as everywhere", async () => {
    const { orderId } = await paidHostingOrder(served.t, person.id);
    const token = await cliToken(served, person.id);
    const signedIn = { ACADEMY_URL: served.url, XDG_CONFIG_HOME: await configWithLogins([{ server: served.url, token, email: person.email }]) };
    expect((await runCli(sourceCli, ["receipts", orderId, "--html"], signedIn)).code).toBe(0);
    await served.t.database.db.delete(session).where(eq(session.token, token));
    const refusal = "Error: This token is not valid any more. Run academy login to sign in again.\n";
    for (const args of [["whoami"], ["receipts", orderId], ["receipts", orderId, "--html"]]) expect(await runCli(sourceCli, args, signedIn), args.join(" ")).toMatchObject({ code: 3, stderr: refusal });
  });
});
