import { release } from "node:os";
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

async function send(server: string, path: string, init: RequestInit & { token?: string }): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("user-agent", userAgent);
  headers.set("accept", "application/json");
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  const method = init.method ?? "GET";
  const started = performance.now();
  if (debug) process.stderr.write(`> ${method} ${server}${path}${init.token ? " (with a token)" : ""}${typeof init.body === "string" ? ` ${init.body.length} bytes` : ""}\n`);
  try {
    const response = await fetch(`${server}${path}`, { ...init, headers });
    if (debug) process.stderr.write(`< ${response.status} ${response.statusText} ${response.headers.get("content-type") ?? ""} in ${Math.round(performance.now() - started)} ms\n`);
    return response;
  } catch (error) {
    if (debug) process.stderr.write(`< no answer: ${(error as Error).cause ?? (error as Error).message}\n`);
    throw new UnreachableError(`Could not reach ${server}. Is the server running, and is that its address? Pass --server <url> or set ACADEMY_URL to use another.`);
  }
}

/** The JSON of an answer; a web page (a wrong --server, or a proxy's error page) is said in a sentence. */
async function jsonOf<T>(server: string, response: Response): Promise<T> {
  const body = await response.text();
  try {
    return JSON.parse(body) as T;
  } catch {
    throw new CliError(`${server} answered with ${/^\s*</.test(body) ? "a web page" : "something"} that is not the Academy API's JSON. Is ${server} an Academy server? Pass another with --server or ACADEMY_URL.`);
  }
}

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
  const response = await send(server, path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const retryAfter = Number(response.headers.get("retry-after") ?? response.headers.get("x-retry-after") ?? 0);
  return {
    status: response.status,
    json: ((await response.json().catch(() => ({}))) ?? {}) as Record<string, unknown>,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 0,
  };
}

/**
 * A request with the stored token; an answer in the API's error shape becomes a CliError with its
 * exit code: 401 → not signed in (3), 404 → not found (4), anything else → failure (1).
 */
export async function signedRequest(server: string, path: string, init: RequestInit = {}, options: { optional?: boolean } = {}): Promise<Response> {
  const response = await send(server, path, { ...init, token: await credential(server, options.optional === true) });
  if (response.ok) return response;
  const json = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  const message = json?.error?.message ?? `The server answered ${response.status}.`;
  if (response.status === 401 && given) throw new CliError(`${server} refused the token in ${given.source}: it is wrong, revoked or expired. Make a new API key on ${server}/api-tools.`, exitCodes.signedOut);
  if (response.status === 401) throw new CliError(message, exitCodes.signedOut);
  if (response.status === 404) throw new CliError(message, exitCodes.notFound);
  throw new CliError(message);
}

/** A request as given (`academy api`): with the token if there is one, the answer as it comes, whatever its status. */
export async function rawRequest(server: string, path: string, init: RequestInit = {}): Promise<Response> {
  return send(server, path, { ...init, token: await credential(server, true) });
}

/** What a server says of one token: who it signs in as, or why it does not. */
export type TokenCheck = { ok: true; name: string; email: string } | { ok: false; problem: "refused" | "unreachable" | "failed"; message: string };

/** Asks the server who `token` is (GET /api/v1/me), without throwing: `academy auth status` reports every answer. */
export async function checkToken(server: string, token: string): Promise<TokenCheck> {
  try {
    const response = await send(server, "/api/v1/me", { token });
    if (response.status === 401) return { ok: false, problem: "refused", message: "the server no longer accepts the token" };
    const me = (await response.json().catch(() => null)) as { name?: string; email?: string } | null;
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
    const response = await send(server, "/api/v1/session", { method: "DELETE", token });
    return response.ok || response.status === 401 ? null : `${server} answered ${response.status}`;
  } catch (error) {
    if (error instanceof UnreachableError) return `could not reach ${server}`;
    throw error;
  }
}

/** A call to /api/v1, its JSON answer parsed (nothing for a 204); `optional` sends no token when there is none, for what anyone may read. */
export async function api<T>(server: string, path: string, init: RequestInit = {}, options: { optional?: boolean } = {}): Promise<T> {
  const response = await signedRequest(server, `/api/v1${path}`, init, options);
  return (response.status === 204 ? undefined : await jsonOf<T>(server, response)) as T;
}

/** Every item of a paged /api/v1 list (or the first `limit`), following `nextCursor` until the last page needed. */
export async function everyPage<T>(server: string, path: string, field: string, limit = Infinity): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page: Record<string, unknown> & { nextCursor: string | null } = await api(server, `${path}?limit=${Math.min(100, limit)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    items.push(...(page[field] as T[]));
    cursor = page.nextCursor;
  } while (cursor && items.length < limit);
  return items.slice(0, limit);
}
