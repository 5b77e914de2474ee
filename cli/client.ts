import { release } from "node:os";
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./api-schema.ts";
import { readToken } from "./credentials.ts";
import cliPackage from "./package.json" with { type: "json" };

/** Exit codes every command keeps to. */
export const exitCodes = { ok: 0, failure: 1, usage: 2, signedOut: 3, notFound: 4 } as const;

/** A failure the CLI explains and exits with. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = exitCodes.failure) {
    super(message);
    this.exitCode = exitCode;
  }
}

const platformName: Record<string, string> = { linux: "Linux", darwin: "macOS", win32: "Windows" };
/** The release it ships with (cli/package.json, kept to the server's): `academy --version` and the server's /healthz agree. */
export const cliVersion = cliPackage.version;
export const userAgent = `academy-cli/${cliVersion} (${platformName[process.platform] ?? process.platform} ${release()}; Node ${process.versions.node})`;

/** The server every command talks to: --server, else ACADEMY_URL, else the local one `npm start` serves. */
export function serverUrl(option: string | undefined): string {
  const raw = option || process.env.ACADEMY_URL || "http://localhost:3000";
  try {
    const url = new URL(raw);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("scheme");
    return url.origin;
  } catch {
    throw new CliError(`"${raw}" is not a server address. Pass one like --server https://academy.example.com.`, exitCodes.usage);
  }
}

/** The server did not answer at all: nothing there, or the network is down. */
export class UnreachableError extends CliError {}

let debug = false;

/** `--debug`: each HTTP request and its answer on stderr (the token never). */
export function debugRequests(on: boolean): void {
  debug = on;
}

/** Sends a request with the CLI's headers (and the token, if any); an unreachable server is said in a sentence. */
async function send(request: Request, token?: string): Promise<Response> {
  request.headers.set("user-agent", userAgent);
  if (!request.headers.has("accept")) request.headers.set("accept", "application/json");
  if (token) request.headers.set("authorization", `Bearer ${token}`);
  const started = performance.now();
  if (debug) {
    const bytes = request.body ? (await request.clone().arrayBuffer()).byteLength : 0;
    process.stderr.write(`> ${request.method} ${request.url}${token ? " (with a token)" : ""}${bytes ? ` ${bytes} bytes` : ""}\n`);
  }
  try {
    const response = await fetch(request);
    if (debug) process.stderr.write(`< ${response.status} ${response.statusText} ${response.headers.get("content-type") ?? ""} in ${Math.round(performance.now() - started)} ms\n`);
    return response;
  } catch (error) {
    if (debug) process.stderr.write(`< no answer: ${(error as Error).cause ?? (error as Error).message}\n`);
    const { origin } = new URL(request.url);
    throw new UnreachableError(`Could not reach ${origin}. Is the server running, and is that its address? Pass --server <url> or set ACADEMY_URL to use another.`);
  }
}

/** A request to `server` (`path` from its root), as fetch's init describes it. */
const requestTo = (server: string, path: string, init: RequestInit = {}) => new Request(`${server}${path}`, init);

/** A token given for this run (an API key, `acd_…`, or a CLI token), and where it came from, for the messages. */
export interface GivenToken {
  token: string;
  source: "--token" | "ACADEMY_TOKEN";
}

let given: GivenToken | null = null;

/** --token, else ACADEMY_TOKEN: used instead of the login stored for the server, for this run only. */
export function giveToken(option: string | undefined, env: NodeJS.ProcessEnv = process.env): GivenToken | null {
  given = option ? { token: option, source: "--token" } : env.ACADEMY_TOKEN ? { token: env.ACADEMY_TOKEN, source: "ACADEMY_TOKEN" } : null;
  return given;
}

/** The token for `server`; with `optional`, none (undefined) rather than the refusal when there is none. */
async function credential(server: string, optional: boolean): Promise<string | undefined> {
  if (given) return given.token;
  const stored = await readToken(server);
  if (!stored && optional) return undefined;
  if (!stored) throw new CliError(`You are not signed in to ${server}. Run academy login first, or give an API key with ACADEMY_TOKEN or --token.`, exitCodes.signedOut);
  return stored.token;
}

/** A JSON POST to one of Better Auth's endpoints, as the device grant needs; `retryAfterSeconds` is the answer's Retry-After (0 without one). */
export async function postJson(server: string, path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown>; retryAfterSeconds: number }> {
  const response = await send(requestTo(server, path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
  const retryAfter = Number(response.headers.get("retry-after") ?? response.headers.get("x-retry-after") ?? 0);
  return {
    status: response.status,
    json: ((await response.json().catch(() => ({}))) ?? {}) as Record<string, unknown>,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 0,
  };
}

/** A request as given (`academy api`): with the token if there is one, the answer as it comes, whatever its status. */
export async function rawRequest(server: string, path: string, init: RequestInit = {}): Promise<Response> {
  return send(requestTo(server, path, init), await credential(server, true));
}

/**
 * The API's typed client: openapi-fetch over the types `npm run api-types` generates from the
 * server's OpenAPI document (cli/api-schema.ts, checked against the server by a test), so a call
 * the API does not declare, or a field it does not return, fails to compile. `optional` sends no
 * token when there is none, for what anyone may read; without it, no login is refused before asking.
 */
export function apiClient(server: string, options: { optional?: boolean } = {}): Client<paths> {
  return createClient<paths>({
    baseUrl: `${server}/api/v1`,
    fetch: async (request) => {
      const response = await send(request, await credential(server, options.optional === true));
      const type = response.headers.get("content-type") ?? "";
      // A web page where JSON was asked for: a wrong --server, or a proxy's error page.
      if (response.status !== 204 && request.headers.get("accept") === "application/json" && !/^application\/(problem\+)?json/.test(type)) {
        const body = await response.text();
        throw new CliError(`${server} answered with ${/^\s*</.test(body) ? "a web page" : "something"} that is not the Academy API's JSON. Is ${server} an Academy server? Pass another with --server or ACADEMY_URL.`);
      }
      return response;
    },
  });
}

/** The API's schemas (components), by name: `Schemas["Note"]`. */
export type Schemas = components["schemas"];

/**
 * What a call of the typed client answered: its data, or a CliError with the exit code its status
 * gives: 401 → not signed in (3), 404 → not found (4), anything else → failure (1).
 */
export async function answer<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const message = (error as { error?: { message?: string } } | undefined)?.error?.message ?? `The server answered ${response.status}.`;
  if (response.status === 401 && given) throw new CliError(`${new URL(response.url).origin} refused the token in ${given.source}: it is wrong, revoked or expired. Make a new API key on ${new URL(response.url).origin}/api-tools.`, exitCodes.signedOut);
  if (response.status === 401) throw new CliError(message, exitCodes.signedOut);
  if (response.status === 404) throw new CliError(message, exitCodes.notFound);
  throw new CliError(message);
}

/** What a server says of one token: who it signs in as, or why it does not. */
export type TokenCheck = { ok: true; name: string; email: string } | { ok: false; problem: "refused" | "unreachable" | "failed"; message: string };

/** Asks the server who `token` is (GET /me), without throwing: `academy auth status` reports every answer. */
export async function checkToken(server: string, token: string): Promise<TokenCheck> {
  try {
    const response = await send(requestTo(server, "/api/v1/me"), token);
    if (response.status === 401) return { ok: false, problem: "refused", message: "the server no longer accepts the token" };
    const me = (await response.json().catch(() => null)) as Partial<Schemas["Me"]> | null;
    if (!response.ok || !me?.email) return { ok: false, problem: "failed", message: `the server answered ${response.status}` };
    return { ok: true, name: me.name ?? "", email: me.email };
  } catch (error) {
    if (error instanceof UnreachableError) return { ok: false, problem: "unreachable", message: `could not reach ${server}` };
    throw error;
  }
}

/** Ends a CLI token's session on the server: null once it is ended (or the server no longer knew it), else why not. */
export async function endSession(server: string, token: string): Promise<string | null> {
  try {
    const response = await send(requestTo(server, "/api/v1/session", { method: "DELETE" }), token);
    return response.ok || response.status === 401 ? null : `${server} answered ${response.status}`;
  } catch (error) {
    if (error instanceof UnreachableError) return `could not reach ${server}`;
    throw error;
  }
}

/** One page of a list: its items and the cursor of the next (null on the last). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Every item of a paged list (or the first `limit`), asking for pages of up to 100 until the last one needed. */
export async function everyPage<T>(page: (query: { limit: number; cursor?: string }) => Promise<Page<T>>, limit = Infinity): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const next = await page({ limit: Math.min(100, limit), ...(cursor ? { cursor } : {}) });
    items.push(...next.items);
    cursor = next.nextCursor ?? undefined;
  } while (cursor && items.length < limit);
  return items.slice(0, limit);
}
