import { readFile } from "node:fs/promises";
import { text } from "node:stream/consumers";
import { CliError, exitCodes, rawRequest } from "./client.ts";
import { printJson } from "./output.ts";

const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** `key=value` pairs from --field, each once. */
function fieldsOf(pairs: string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at < 1) throw new CliError(`--field takes key=value, like --field title=Hooks (not "${pair}").`, exitCodes.usage);
    fields[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return fields;
}

async function inputOf(input: string): Promise<string> {
  if (input === "-") return text(process.stdin);
  try {
    return await readFile(input, "utf8");
  } catch {
    throw new CliError(`Could not read ${input}. Check the path, or pass - to read standard input.`, exitCodes.usage);
  }
}

/** The exit code an answer's status gives: 2xx 0, 401 3, 404 4, anything else 1. */
const exitCodeOf = (status: number) => (status < 300 ? exitCodes.ok : status === 401 ? exitCodes.signedOut : status === 404 ? exitCodes.notFound : exitCodes.failure);

/**
 * `academy api <METHOD> <path>`: any request to the API (gh's `api`), with the stored login or the
 * given key; the answer's body on stdout (JSON indented), the exit code from its status. Fields go
 * in the query of a GET or DELETE and in a JSON body otherwise; --input sends a file (or stdin) as it is.
 */
export async function apiCommand(server: string, method: string, path: string, options: { field: string[]; input?: string }): Promise<number> {
  const verb = method.toUpperCase();
  if (!methods.includes(verb)) throw new CliError(`"${method}" is not a method the API takes: use ${methods.join(", ")}.`, exitCodes.usage);
  if (options.input && options.field.length > 0) throw new CliError("Give the body with --field or with --input, not both.", exitCodes.usage);
  const fields = fieldsOf(options.field);
  const inQuery = verb === "GET" || verb === "DELETE";
  const url = new URL(path.startsWith("/api/") ? path : `/api/v1${path.startsWith("/") ? "" : "/"}${path}`, server);
  if (inQuery) for (const [key, value] of Object.entries(fields)) url.searchParams.set(key, value);
  const body = options.input ? await inputOf(options.input) : !inQuery && options.field.length > 0 ? JSON.stringify(fields) : undefined;
  const response = await rawRequest(server, `${url.pathname}${url.search}`, { method: verb, ...(body === undefined ? {} : { body, headers: { "content-type": "application/json" } }) });
  const answer = await response.text();
  let json: { parsed: unknown } | null = null;
  try {
    json = { parsed: JSON.parse(answer) };
  } catch {
    // Not JSON: shown as it came.
  }
  // A JSON success goes through --json fields and --jq as any command's output does; an error is shown whole.
  if (json && response.ok) await printJson(json.parsed);
  else {
    const shown = json ? JSON.stringify(json.parsed, null, 2) : answer;
    if (shown) process.stdout.write(shown.endsWith("\n") ? shown : `${shown}\n`);
  }
  if (!response.ok) process.stderr.write(`${verb} ${url.pathname} answered ${response.status}.\n`);
  return exitCodeOf(response.status);
}
