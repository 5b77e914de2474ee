#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { api, CliError, exitCodes, serverUrl } from "./client.ts";
import { login, logout } from "./login.ts";
import { paint, printJson, printTable } from "./output.ts";

interface Globals {
  server?: string;
  json?: boolean;
}

const program = new Command("academy")
  .description("Academy from your terminal: your courses, progress, notes, orders and websites.")
  .option("--server <url>", "the Academy server (default: $ACADEMY_URL, else http://localhost:3000)")
  .option("--json", "print JSON for scripts instead of tables")
  .showHelpAfterError("(run academy --help for the commands)")
  .configureOutput({ outputError: (text, write) => write(paint("red", text, process.stderr)) })
  .exitOverride();

const globals = () => program.opts<Globals>();
const server = () => serverUrl(globals().server);
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

program
  .command("whoami")
  .description("show who you are signed in as")
  .addHelpText("after", examples(["academy whoami", "academy whoami --json"]))
  .action(async () => {
    const me = await api<{ id: string; name: string; email: string }>(server(), "/me");
    if (globals().json) printJson(me);
    else process.stdout.write(`${me.name} <${me.email}> on ${server()}\n`);
  });

interface ApiCourse {
  id: string;
  title: string;
  summary: string;
  price: { amount: number; currency: string };
  enrolled: boolean;
  progressPercent: number | null;
}

const rupees = (price: ApiCourse["price"]) => new Intl.NumberFormat("en-IN", { style: "currency", currency: price.currency, maximumFractionDigits: 0 }).format(price.amount / 100);

const courses = program.command("courses").description("the course catalogue, with your enrolments and progress");
courses
  .command("list", { isDefault: true })
  .description("every course")
  .addHelpText("after", examples(["academy courses", "academy courses list --json | jq '.courses[] | select(.enrolled)'"]))
  .action(async () => {
    const { courses: list } = await api<{ courses: ApiCourse[] }>(server(), "/courses");
    if (globals().json) return printJson({ courses: list });
    printTable(
      ["ID", "PRICE", "YOURS", "TITLE"],
      list.map((c) => [c.id, rupees(c.price), c.enrolled ? `${c.progressPercent ?? 0}%` : "—", c.title]),
    );
  });

async function main(): Promise<number> {
  try {
    await program.parseAsync(process.argv);
    return exitCodes.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here too, with code 0.
      return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    }
    if (error instanceof CliError) {
      process.stderr.write(`${paint("red", "Error:", process.stderr)} ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

process.exitCode = await main();
