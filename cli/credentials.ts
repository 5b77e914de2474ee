import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";

/**
 * Where the CLI keeps its tokens: $XDG_CONFIG_HOME/academy/credentials.json (~/.config on Linux,
 * %APPDATA% on Windows), readable by the user alone. One token per server.
 */
export function credentialsFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || (process.platform === "win32" && env.APPDATA) || path.join(homedir(), ".config");
  return path.join(base, "academy", "credentials.json");
}

type Stored = Record<string, { token: string; email: string; savedAt: string }>;

async function readAll(file: string): Promise<Stored> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as Stored;
  } catch {
    return {};
  }
}

/** Every server this machine is signed in to, with its token and the address it was signed in as. */
export async function storedLogins(): Promise<{ server: string; token: string; email: string }[]> {
  return Object.entries(await readAll(credentialsFile())).map(([server, entry]) => ({ server, token: entry.token, email: entry.email }));
}

export async function readToken(server: string): Promise<{ token: string; email: string } | null> {
  return (await readAll(credentialsFile()))[server] ?? null;
}

export async function saveToken(server: string, token: string, email: string): Promise<string> {
  const file = credentialsFile();
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const all = await readAll(file);
  all[server] = { token, email, savedAt: new Date().toISOString() };
  // Created 0600, and made so again in case an older file was wider.
  await writeFile(file, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return file;
}

export async function forgetToken(server: string): Promise<void> {
  const file = credentialsFile();
  const all = await readAll(file);
  if (!(server in all)) return;
  delete all[server];
  if (Object.keys(all).length === 0) await rm(file, { force: true });
  else await writeFile(file, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
}
