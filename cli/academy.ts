#!/usr/bin/env node
import { constants } from "node:fs";
import { access, writeFile } from "node:fs/promises";
import path from "node:path";
import { formatPaise } from "../common/format.ts";
import { Command, CommanderError, Option } from "commander";
import { completionScript } from "./completion.ts";
import { nearest } from "./suggest.ts";
import { apiCommand } from "./api-command.ts";
import { authStatus } from "./auth-status.ts";
import { answer, apiClient, CliError, cliVersion, debugRequests, everyPage, exitCodes, giveToken, serverUrl, type Schemas } from "./client.ts";
import { login, logout, openBrowser } from "./login.ts";
import { invoiceHtml, invoicePdf } from "./invoice.ts";
import { everyValue, mentions, ordered, readsWhole, withListOptions, type ListOptions } from "./lists.ts";
import { noteText } from "./text-input.ts";
import { jsonRequested, paint, printJson, printTable, selectJqFilter, selectJsonFields } from "./output.ts";

interface Globals {
  server?: string;
  json?: boolean;
  jsonFields?: string;
  jq?: string;
  token?: string;
  debug?: boolean;
}

/** The exit code of a command that finished but reports a failure (auth status with a refused token). */
let finishedWith: number = exitCodes.ok;

const program = new Command("academy")
  .description("Academy from your terminal: your courses, progress, notes, orders and websites.")
  .option("--server <url>", "the Academy server (default: $ACADEMY_URL, else http://localhost:3000)")
  .option("--json", "print JSON for scripts instead of tables (--json title,progress: only those fields)")
  .addOption(new Option("--json-fields <fields>").hideHelp())
  .option("--jq <filter>", "filter that JSON with jq, like --jq '.notes[].title' (implies --json; strings print as text)")
  .option("--debug", "print each HTTP request and its answer on stderr")
  .option("--token <key>", "use this API key (acd_…) instead of the stored login (default: $ACADEMY_TOKEN)")
  .version(cliVersion, "-V, --version", "print the CLI's version")
  .showHelpAfterError(jsonRequested() ? false : "(run academy --help for the commands)")
  .configureOutput({ outputError: (text, write) => write(jsonRequested() ? jsonError(text.replace(/^error: /, "").trim(), exitCodes.usage) : paint("red", text, process.stderr)) })
  .exitOverride()
  .hook("preAction", () => {
    giveToken(program.opts<Globals>().token);
    selectJsonFields(program.opts<Globals>().jsonFields);
    selectJqFilter(program.opts<Globals>().jq);
    if (program.opts<Globals>().jq !== undefined) program.setOptionValue("json", true);
    debugRequests(program.opts<Globals>().debug === true);
  });

program.addHelpText(
  "after",
  `
Examples:
  $ academy login
  $ academy courses
  $ academy notes add --title "Hooks" --file hooks.md
  $ ACADEMY_TOKEN=acd_… academy notes --jq '.notes[].title'
  $ academy auth status

Environment variables:
  ACADEMY_URL      the server, when --server is not given (default http://localhost:3000)
  ACADEMY_TOKEN    an API key (acd_…) to use instead of the stored login, as --token does
  XDG_CONFIG_HOME  where academy/credentials.json is kept (default ~/.config)
  VISUAL, EDITOR   the editor notes add and notes edit open
  CHROME_PATH      the Chromium or Chrome that receipts --pdf prints with
  NO_COLOR         set to anything to turn colour off

Exit codes:
  0  done
  1  failed (the server refused, could not be reached, or answered in error)
  2  usage: an unknown command or option, or a missing or wrong argument
  3  not signed in, or the token was refused
  4  not found

Shell completion: academy completion bash|zsh|fish. Documentation: docs/cli.md.
`,
);

const globals = () => program.opts<Globals>();

/**
 * A group's default command (list) takes no words: one given is a mistyped subcommand, answered
 * with the nearest one rather than commander's "too many arguments for 'list'".
 */
function refuseStray(command: Command): void {
  const [word] = command.args;
  const group = command.parent;
  if (word === undefined || !group) return;
  const meant = nearest(word, group.commands.map((c) => c.name()));
  throw new CliError(`"${word}" is not an academy ${group.name()} command.${meant ? ` Did you mean academy ${group.name()} ${meant}?` : ""} See academy ${group.name()} --help.`, exitCodes.usage);
}
const server = () => serverUrl(globals().server);
/** The typed API client for this run's server (its types generated from the server's OpenAPI document). */
const client = (options: { optional?: boolean } = {}) => apiClient(server(), options);

const examples = (lines: string[]) => `\nExamples:\n${lines.map((line) => `  $ ${line}`).join("\n")}\n`;

program
  .command("login")
  .description("sign this machine in: approve a code in your browser")
  .option("--no-browser", "only print the address to open")
  .addHelpText("after", examples(["academy login", "academy login --no-browser --server https://academy.example.com"]))
  .action(async (options: { browser: boolean }) => login(server(), { browser: options.browser, json: globals().json === true }));

program
  .command("logout")
  .description("sign this machine out, on the server too")
  .addHelpText("after", examples(["academy logout"]))
  .action(async () => logout(server(), { json: globals().json === true }));

const auth = program.command("auth").description("the credentials this machine uses");
auth
  .command("status")
  .description("every server this machine is signed in to, and who is signed in on each")
  .addHelpText("after", examples(["academy auth status", "ACADEMY_TOKEN=acd_… academy auth status --json"]))
  .action(async () => {
    finishedWith = await authStatus({ server: server(), given: giveToken(globals().token), json: globals().json === true });
  });

program
  .command("whoami")
  .description("show who you are signed in as")
  .addHelpText("after", examples(["academy whoami", "academy whoami --json"]))
  .action(async () => {
    const me = await answer(client().GET("/me"));
    if (globals().json) await printJson(me);
    else process.stdout.write(`${me.name} <${me.email}> on ${server()}\n`);
  });

/** The catalogue, with your enrolments when signed in; anyone may list it. */
const catalogue = () => answer(client({ optional: true }).GET("/courses"));

/** As the site and the invoice write it: whole rupees as ₹6,999, with paise as ₹1,067.64. */
const rupees = (price: Schemas["Course"]["price"]) => formatPaise(price.amount);

const courses = program.command("courses").description("the course catalogue, with your enrolments and progress");
withListOptions(
  courses
    .command("list", { isDefault: true })
    .allowExcessArguments(true)
    .description("every course, or those --enrolled and --search choose")
    .option("--enrolled", "only the courses you are enrolled in")
    .option("--search <text>", "only courses whose title or summary mentions this"),
  "price",
)
  .addHelpText("after", examples(["academy courses", "academy courses --json title,price", "academy courses --sort price --desc --limit 3", "academy courses --search react", "academy courses --enrolled --jq '.courses[].title'"]))
  .action(async (options: ListOptions & { enrolled?: boolean; search?: string }, command: Command) => {
    refuseStray(command);
    const { search } = options;
    const all = (await catalogue()).courses.filter((c) => (!options.enrolled || c.enrolled) && (search === undefined || mentions(c.title, search) || mentions(c.summary, search)));
    const list = ordered(all, options);
    if (globals().json) return printJson({ courses: list });
    if (list.length === 0) return void process.stdout.write(options.enrolled && search === undefined ? "You are not enrolled in a course yet.\n" : "No course is like that. Run academy courses for them all.\n");
    printTable(
      ["PRICE", "YOURS", "TITLE", "ID"],
      list.map((c) => [rupees(c.price), c.enrolled ? `${c.progressPercent ?? 0}%` : "—", c.title, c.id]),
    );
  });

courses
  .command("show <courseId>")
  .description("one course, with your progress in it")
  .addHelpText("after", examples(["academy courses show react-fundamentals"]))
  .action(async (courseId: string) => {
    const { courses: list } = await catalogue();
    const course = list.find((c) => c.id === courseId);
    if (!course) throw new CliError(`There is no course "${courseId}". Run academy courses for the list.`, exitCodes.notFound);
    if (globals().json) return printJson(course);
    process.stdout.write(`${paint("bold", course.title)}\n${course.summary}\n\nPrice: ${rupees(course.price)}\n`);
    process.stdout.write(course.enrolled ? `You are enrolled: ${course.progressPercent ?? 0}% done.\n` : `Not enrolled. Buy it at ${server()}/course/${course.id}\n`);
  });

withListOptions(program.command("progress [courseId]"), "percent")
  .description("how far you are in each course you are enrolled in")
  .option("--unfinished", "only the courses you have not finished")
  .addHelpText("after", examples(["academy progress", "academy progress react-fundamentals --json", "academy progress --json title,percent", "academy progress --unfinished --sort percent --desc"]))
  .action(async (courseId: string | undefined, options: ListOptions & { unfinished?: boolean }) => {
    const { courses: all } = await answer(client().GET("/progress"));
    const shown = ordered(all.filter((c) => (courseId === undefined || c.courseId === courseId) && (!options.unfinished || c.percent < 100)), options);
    if (courseId && shown.length === 0) throw new CliError(`You are not enrolled in "${courseId}". Run academy progress for your courses.`, exitCodes.notFound);
    if (globals().json) return printJson(courseId ? shown[0] : { courses: shown });
    if (shown.length === 0) return void process.stdout.write(`You are not enrolled in a course yet. Browse them with academy courses.\n`);
    printTable(["LESSONS", "DONE", "TITLE", "COURSE"], shown.map((c) => [`${c.completedLessons}/${c.totalLessons}`, `${c.percent}%`, c.title, c.courseId]));
  });

const allNotes = (limit?: number): Promise<Schemas["Note"][]> =>
  everyPage(async (query) => {
    const page = await answer(client().GET("/notes", { params: { query } }));
    return { items: page.notes, nextCursor: page.nextCursor };
  }, limit);
/** One of your notes, by its id. */
const noteOf = (id: string) => answer(client().GET("/notes/{id}", { params: { path: { id } } }));

const day = (iso: string) => iso.slice(0, 10);
const notes = program.command("notes").description("your notes: list, read, write, change, delete and export them");
withListOptions(
  notes
    .command("list", { isDefault: true })
    .allowExcessArguments(true)
    .description("every note, last updated first")
    .option("--course <courseId>", "only the notes attached to this course's lessons")
    .option("--search <text>", "only notes whose title or text mentions this"),
  "title",
)
  .addHelpText("after", examples(["academy notes", "academy notes list --json", "academy notes --limit 5 --json title,updatedAt", "academy notes --search hooks --sort title", "academy notes --course react-fundamentals --jq '.notes[].title'"]))
  .action(async (options: ListOptions & { course?: string; search?: string }, command: Command) => {
    refuseStray(command);
    const { course, search } = options;
    const filtered = course !== undefined || search !== undefined;
    const every = await allNotes(readsWhole(options, filtered) ? undefined : options.limit);
    const list = ordered(every.filter((n) => (course === undefined || n.courseId === course) && (search === undefined || mentions(n.title, search) || mentions(n.body, search))), options);
    if (globals().json) return printJson({ notes: list });
    if (list.length === 0) return void process.stdout.write(filtered ? "None of your notes is like that.\n" : "You have no notes yet. Write one with academy notes add.\n");
    printTable(["UPDATED", "TITLE", "ID"], list.map((n) => [day(n.updatedAt), n.title || "(untitled)", n.id]));
  });
notes
  .command("show <noteId>")
  .description("one note's text")
  .addHelpText("after", examples(["academy notes show 6f1c…", "academy notes show 6f1c… --json"]))
  .action(async (noteId: string) => {
    const note = await noteOf(noteId);
    if (globals().json) return printJson(note);
    process.stdout.write(`${paint("bold", note.title || "(untitled)")}\n\n${note.body}${note.body.endsWith("\n") ? "" : "\n"}`);
  });
notes
  .command("add")
  .description("write a note: in $EDITOR, from --file, or from standard input")
  .option("--title <title>", "the note's title")
  .option("--file <path>", "read the text from this file (- for standard input)")
  .option("--lesson <courseId/lessonId>", "attach it to a lesson you can open, like react-fundamentals/1-2")
  .addHelpText("after", examples(['academy notes add --title "Hooks"', 'echo "useEffect runs after paint" | academy notes add --title Hooks', "academy notes add --file notes.md --lesson react-fundamentals/1-2"]))
  .action(async (options: { title?: string; file?: string; lesson?: string }) => {
    const body = await noteText({ file: options.file, initial: "" });
    if (body.trim() === "") throw new CliError("The note is empty, so nothing was saved. Give its text in $EDITOR, with --file or on standard input.", exitCodes.usage);
    const [courseId, lessonId] = options.lesson ? options.lesson.split("/") : [];
    if (options.lesson && (!courseId || !lessonId)) throw new CliError("Give the lesson as courseId/lessonId, like react-fundamentals/1-2.", exitCodes.usage);
    const note = await answer(client().POST("/notes", { body: { title: options.title ?? "", body, ...(courseId && lessonId ? { courseId, lessonId } : {}) } }));
    if (globals().json) return printJson(note);
    process.stdout.write(`Saved note ${note.id}${note.title ? ` "${note.title}"` : ""}.\n`);
  });
notes
  .command("edit <noteId>")
  .description("change a note in $EDITOR (or replace its text from --file or standard input)")
  .option("--title <title>", "a new title")
  .option("--file <path>", "read the new text from this file (- for standard input)")
  .addHelpText("after", examples(["academy notes edit 6f1c…", "academy notes edit 6f1c… --title 'Hooks, revised' --file hooks.md"]))
  .action(async (noteId: string, options: { title?: string; file?: string }) => {
    const current = await noteOf(noteId);
    const body = await noteText({ file: options.file, initial: current.body });
    const note = await answer(client().PATCH("/notes/{id}", { params: { path: { id: noteId } }, body: { title: options.title ?? current.title, body } }));
    if (globals().json) return printJson(note);
    process.stdout.write(`Saved note ${note.id}.\n`);
  });
notes
  .command("rm <noteId>")
  .description("delete a note (it can be restored on the notes page for a day)")
  .addHelpText("after", examples(["academy notes rm 6f1c…"]))
  .action(async (noteId: string) => {
    // Deleting a deleted note changes nothing on the server: ask first, so "Deleted" is only said when it was.
    await noteOf(noteId).catch((error: unknown) => {
      if (error instanceof CliError && error.exitCode === exitCodes.notFound) throw new CliError(`There is no note ${noteId} to delete: it was deleted already (restore it on ${server()}/notes within a day), or it is not yours.`, exitCodes.notFound);
      throw error;
    });
    await answer(client().DELETE("/notes/{id}", { params: { path: { id: noteId } } }));
    if (globals().json) return printJson({ deleted: noteId });
    process.stdout.write(`Deleted note ${noteId}. Undo it on ${server()}/notes within a day.\n`);
  });
notes
  .command("export")
  .description("every note as Markdown (or JSON with --json), to standard output")
  .addHelpText("after", examples(["academy notes export > notes.md", "academy notes export --json > notes.json"]))
  .action(async () => {
    const list = await allNotes();
    if (globals().json) return printJson({ notes: list });
    process.stdout.write(list.map((n) => `# ${n.title || "(untitled)"}\n\n_${day(n.updatedAt)}_\n\n${n.body.trim()}\n`).join("\n---\n\n"));
  });

/** Your orders, newest first (or the first `limit`). */
const allOrders = (limit?: number): Promise<Schemas["Order"][]> =>
  everyPage(async (query) => {
    const page = await answer(client().GET("/orders", { params: { query } }));
    return { items: page.orders, nextCursor: page.nextCursor };
  }, limit);

const orderStatuses = everyValue<Schemas["Order"]["status"]>()("created", "paid", "failed", "cancelled", "refunded");
const orderKinds = everyValue<Schemas["Order"]["kind"]>()("course", "website");

withListOptions(
  program
    .command("orders")
    .description("your orders, newest first")
    .addOption(new Option("--status <status>", "only orders in this state").choices(orderStatuses))
    .addOption(new Option("--kind <kind>", "only orders for a course or for a website").choices(orderKinds)),
  "total",
)
  .addHelpText("after", examples(["academy orders", "academy orders --json", "academy orders --limit 1 --json number,status", "academy orders --status paid --kind website", "academy orders --sort total --desc --jq '.orders[0].number'"]))
  .action(async (options: ListOptions & { status?: string; kind?: string }) => {
    const filtered = options.status !== undefined || options.kind !== undefined;
    const every = await allOrders(readsWhole(options, filtered) ? undefined : options.limit);
    const orders = ordered(every.filter((o) => (options.status === undefined || o.status === options.status) && (options.kind === undefined || o.kind === options.kind)), options);
    if (globals().json) return printJson({ orders });
    if (orders.length === 0) return void process.stdout.write(filtered ? "None of your orders is like that.\n" : "You have no orders yet.\n");
    printTable(["DATE", "TOTAL", "STATUS", "WHAT", "NUMBER", "ID"], orders.map((o) => [day(o.createdAt), rupees(o.total), o.refund ? `refund ${o.refund.status}` : o.status, o.title, o.number, o.id]), 2);
  });

/** A file the CLI could not write, as a sentence: the folder that is not there, or not writable. */
function cannotWrite(file: string, error: unknown): never {
  const code = (error as NodeJS.ErrnoException).code;
  const folder = path.dirname(path.resolve(file));
  if (code === "ENOENT") throw new CliError(`Could not write ${file}: there is no folder ${folder}. Create it, or choose another -o.`);
  if (code === "EACCES" || code === "EPERM") throw new CliError(`Could not write ${file}: you may not write in ${folder}. Choose another -o.`);
  throw new CliError(`Could not write ${file}: ${(error as Error).message}`);
}

const uuid = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i;

/** An order's id, given it or the order's number (ACD-000001), looked up in your orders. */
async function orderIdOf(given: string): Promise<string> {
  if (uuid.test(given)) return given;
  const order = (await allOrders()).find((o) => o.number.toLowerCase() === given.toLowerCase());
  if (!order) throw new CliError(`You have no order "${given}". Run academy orders for their numbers.`, exitCodes.notFound);
  return order.id;
}

program
  .command("receipts <order>")
  .description("the receipt of a paid order (by its number, ACD-000001, or id); its GST tax invoice as HTML or PDF")
  .option("--html", "the tax invoice as one HTML file")
  .option("--pdf", "the tax invoice as a PDF (printed by a local Chromium or Chrome)")
  .option("-o, --output <file>", "where to write it (HTML: standard output by default; PDF: invoice-<number>.pdf)")
  .addHelpText("after", examples(["academy receipts ACD-000001", "academy receipts ACD-000001 --html > invoice.html", "academy receipts 0b7e… --pdf -o invoice.pdf"]))
  .action(async (given: string, options: { html?: boolean; pdf?: boolean; output?: string }) => {
    if (options.html && options.pdf) throw new CliError("Choose --html or --pdf, not both.", exitCodes.usage);
    const orderId = await orderIdOf(given);
    if (options.html || options.pdf) {
      const html = await invoiceHtml(server(), orderId);
      if (options.html && !options.output) return void process.stdout.write(html);
      const number = /<title>Tax invoice ([\w-]+)<\/title>/.exec(html)?.[1] ?? orderId;
      const output = options.output ?? `invoice-${number}.pdf`;
      // A folder that is not there is said before Chromium is started, in the same words for both.
      await access(path.dirname(path.resolve(output)), constants.W_OK).catch((error: unknown) => cannotWrite(output, error));
      if (options.html) await writeFile(output, html).catch((error: unknown) => cannotWrite(output, error));
      else await invoicePdf(html, output);
      if (globals().json) return printJson({ written: output });
      return void process.stdout.write(`Wrote the tax invoice to ${output}.\n`);
    }
    const receipt = await answer(client().GET("/orders/{id}/receipt", { params: { path: { id: orderId } } }));
    if (globals().json) return printJson({ ...receipt, url: `${server()}${receipt.url}` });
    process.stdout.write(
      `Receipt ${receipt.number}: ${receipt.title}\nTotal ${rupees(receipt.total)} (GST ${rupees(receipt.tax)}), paid ${receipt.paidAt ? day(receipt.paidAt) : "—"}, payment ${receipt.paymentId ?? "—"}\nInvoice (print or save as PDF from the browser): ${server()}${receipt.url}\n`,
    );
  });

const websites = program.command("websites").description("the websites we host for you");
const websiteStates = everyValue<Schemas["Website"]["state"]>()("pending", "active", "expiring", "expired", "suspended", "cancelled");
withListOptions(
  websites
    .command("list", { isDefault: true })
    .allowExcessArguments(true)
    .description("every website, with its status and expiry")
    .addOption(new Option("--state <state>", "only websites in this state").choices(websiteStates)),
  "expiresAt",
)
  .addHelpText("after", examples(["academy websites", "academy websites list --json", "academy websites --json domain,expiresAt", "academy websites --state expiring --sort expiresAt"]))
  .action(async (options: ListOptions & { state?: string }, command: Command) => {
    refuseStray(command);
    const list = ordered((await answer(client().GET("/websites"))).websites.filter((w) => options.state === undefined || w.state === options.state), options);
    if (globals().json) return printJson({ websites: list });
    if (list.length === 0 && options.state !== undefined) return void process.stdout.write(`None of your websites is ${options.state}.\n`);
    if (list.length === 0) return void process.stdout.write(`We host no websites for you yet. See the plans at ${server()}/service/website-hosting\n`);
    printTable(["EXPIRES", "STATUS", "PLAN", "DOMAIN", "ID"], list.map((w) => [w.expiresAt ? day(w.expiresAt) : "—", w.status, w.plan, w.domain, w.id]), 2);
  });
/** A website's id, given it or the website's domain, looked up in your websites. */
async function websiteIdOf(given: string): Promise<string> {
  if (uuid.test(given)) return given;
  const { websites: list } = await answer(client().GET("/websites"));
  const site = list.find((w) => w.domain.toLowerCase() === given.toLowerCase().replace(/^www\./, ""));
  if (!site) throw new CliError(`You have no website "${given}". Run academy websites for yours.`, exitCodes.notFound);
  return site.id;
}

websites
  .command("show <website>")
  .description("one website (by its domain or id), with every period paid for")
  .addHelpText("after", examples(["academy websites show example.in", "academy websites show 3c9a…"]))
  .action(async (given: string) => {
    const site = await answer(client().GET("/websites/{id}", { params: { path: { id: await websiteIdOf(given) } } }));
    if (globals().json) return printJson(site);
    process.stdout.write(`${paint("bold", site.domain)}: ${site.status}, ${site.plan}, ${site.expiresAt ? `hosted until ${day(site.expiresAt)}` : "not paid for yet"}\n`);
    for (const p of site.periods ?? []) process.stdout.write(`  ${day(p.startsAt)} → ${day(p.endsAt)}  ${p.plan}  ${p.orderNumber}\n`);
    process.stdout.write(`Renew: ${server()}/account/services/websites/${site.id}/renew\n`);
  });

program
  .command("api <method> <path>")
  .description("send any request to the API (/api/v1) with your login or key; prints the answer, exit code from its status")
  .option("-f, --field <key=value>", "a field: in the query of a GET or DELETE, else in a JSON body (repeat it)", (pair: string, all: string[]) => [...all, pair], [])
  .option("--input <file>", "send this file as the JSON body (- for standard input)")
  .addHelpText("after", examples(["academy api GET /me", "academy api GET /notes --field limit=5", "academy api POST /notes --field title=Hooks --field body='useEffect runs after paint'", "echo '{\"title\":\"Hooks, revised\"}' | academy api PATCH /notes/6f1c… --input -", "academy api DELETE /notes/6f1c…"]))
  .action(async (method: string, apiPath: string, options: { field: string[]; input?: string }) => {
    finishedWith = await apiCommand(server(), method, apiPath, options);
  });

program
  .command("completion <shell>")
  .description("print the script that completes academy's commands in bash, zsh or fish")
  .addHelpText("after", examples(["source <(academy completion bash)     # in ~/.bashrc", "source <(academy completion zsh)      # in ~/.zshrc, after compinit", "academy completion fish > ~/.config/fish/completions/academy.fish"]))
  .action((shell: string) => void process.stdout.write(completionScript(program, shell)));

const pages: Record<string, string> = { home: "/", courses: "/courses", account: "/account", orders: "/account/orders", notes: "/notes", websites: "/account/services/websites", settings: "/settings", "api-tools": "/api-tools", help: "/help" };

program
  .command("open <page>")
  .description(`open a page in the browser: ${Object.keys(pages).join(", ")}, or any path like /course/react-fundamentals`)
  .addHelpText("after", examples(["academy open notes", "academy open /course/react-fundamentals"]))
  .action((page: string) => {
    const target = pages[page] ?? (page.startsWith("/") ? page : null);
    const meant = nearest(page, Object.keys(pages));
    if (!target) throw new CliError(`There is no page "${page}".${meant ? ` Did you mean ${meant}?` : ""} Choose one of ${Object.keys(pages).join(", ")}, or give a path that starts with /.`, exitCodes.usage);
    const url = `${server()}${target}`;
    openBrowser(url);
    if (globals().json) return printJson({ opened: url });
    process.stdout.write(`Opening ${url}\n`);
  });

/** An error as one line of JSON for stderr, when --json was asked for: `{ error: { message, exitCode } }`. */
function jsonError(message: string, exitCode: number): string {
  return `${JSON.stringify({ error: { message, exitCode } })}\n`;
}

const fieldList = /^[A-Za-z]\w*(,[A-Za-z]\w*)*$/;

/**
 * gh's `--json title,progress`, as commander takes it: a field list after --json moves to the hidden
 * --json-fields, so a lone --json never swallows the word after it (a command or an identifier).
 * Only after the command: `academy --json notse` is a mistyped command, not a field.
 */
function withJsonFields(argv: string[]): string[] {
  const commandNames = new Set(program.commands.flatMap((c) => [c.name(), ...c.commands.map((sub) => sub.name())]));
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? "";
    const next = argv[i + 1] ?? "";
    if (word.startsWith("--json=")) words.push("--json", `--json-fields=${word.slice("--json=".length)}`);
    else if (word === "--json" && fieldList.test(next) && !commandNames.has(next) && words.some((w) => commandNames.has(w))) {
      words.push("--json", `--json-fields=${next}`);
      i++;
    } else words.push(word);
  }
  return words;
}

async function main(): Promise<number> {
  try {
    await program.parseAsync(withJsonFields(process.argv));
    return finishedWith;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here too, with code 0.
      return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    }
    if (error instanceof CliError) {
      process.stderr.write(jsonRequested() ? jsonError(error.message, error.exitCode) : `${paint("red", "Error:", process.stderr)} ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

process.exitCode = await main();
