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

async function send(server: string, path: string, init: RequestInit & { token?: string }): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("user-agent", userAgent);
  headers.set("accept", "application/json");
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  try {
    return await fetch(`${server}${path}`, { ...init, headers });
  } catch {
    throw new CliError(`Could not reach ${server}. Is the server running? Start it with npm start, or pass --server.`);
  }
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
export async function signedRequest(server: string, path: string, init: RequestInit = {}): Promise<Response> {
  const stored = await readToken(server);
  if (!stored) throw new CliError(`You are not signed in to ${server}. Run academy login first.`, exitCodes.signedOut);
  const response = await send(server, path, { ...init, token: stored.token });
  if (response.ok) return response;
  const json = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  const message = json?.error?.message ?? `The server answered ${response.status}.`;
  if (response.status === 401) throw new CliError(message, exitCodes.signedOut);
  if (response.status === 404) throw new CliError(message, exitCodes.notFound);
  throw new CliError(message);
}

/** A call to /api/v1, its JSON answer parsed (nothing for a 204). */
export async function api<T>(server: string, path: string, init: RequestInit = {}): Promise<T> {
  const response = await signedRequest(server, `/api/v1${path}`, init);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/** Every item of a paged /api/v1 list, following `nextCursor` until the last page. */
export async function everyPage<T>(server: string, path: string, field: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page: Record<string, unknown> & { nextCursor: string | null } = await api(server, `${path}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    items.push(...(page[field] as T[]));
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}
