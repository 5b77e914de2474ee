import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { checkToken, CliError, endSession, postJson } from "./client.ts";
import { forgetToken, readToken, saveToken } from "./credentials.ts";
import { paint, printJson } from "./output.ts";

/** The client id the server's device grant accepts (server/auth/options.ts). */
const clientId = "academy-cli";
const deviceGrant = "urn:ietf:params:oauth:grant-type:device_code";

/** Opens the page in the default browser; if none can be started, the printed address is enough. */
export function openBrowser(url: string): void {
  const [command, args] =
    process.platform === "darwin" ? ["open", [url]] : process.platform === "win32" ? ["cmd", ["/c", "start", "", url]] : ["xdg-open", [url]];
  try {
    const child = spawn(command, args, { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // No browser here: the address is printed above.
  }
}

/** Progress and prompts go to stderr, so stdout carries only the result (and --json stays parseable). */
const say = (text: string) => process.stderr.write(text);

const spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** The time and the waits between polls, so a test can let ten minutes pass at once. */
export interface LoginClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const systemClock: LoginClock = { now: () => Date.now(), sleep: (ms) => sleep(ms) };

/** RFC 8628 §3.5: each `slow_down` adds five seconds to the interval, for the rest of the wait. */
const slowDownStepMs = 5000;

/**
 * `academy login`: the OAuth 2.0 device grant (RFC 8628). The server gives a code; the person
 * approves it in the browser at /login?cliToken=<code>; the CLI polls until approved, denied or
 * expired, then stores the token it receives (never in the URL or the shell's history).
 */
export async function login(server: string, options: { browser: boolean; json: boolean }, clock: LoginClock = systemClock): Promise<void> {
  const started = await postJson(server, "/api/auth/device/code", { client_id: clientId });
  const code = started.json as { device_code?: string; user_code?: string; expires_in?: number; interval?: number };
  if (started.status !== 200 || !code.device_code || !code.user_code) throw new CliError(`The server did not start a sign-in (${started.status}). Try again in a minute.`);
  const shown = code.user_code.length === 8 ? `${code.user_code.slice(0, 4)}-${code.user_code.slice(4)}` : code.user_code;
  const url = `${server}/login?cliToken=${encodeURIComponent(shown)}`;
  say(`Your code: ${paint("bold", shown, process.stderr)}\n`);
  say(`${options.browser ? "Opening" : "Open"} ${url} ${options.browser ? "in your browser; if it does not open, visit it yourself" : "in a browser"} and approve the code there.\n`);
  if (options.browser) openBrowser(url);

  let interval = (code.interval ?? 5) * 1000;
  // Longer than the interval once, when the server's limit asked for a pause.
  let pause = 0;
  const deadline = clock.now() + (code.expires_in ?? 600) * 1000;
  let frame = 0;
  const tty = process.stderr.isTTY === true;
  for (;;) {
    // The last poll is at the deadline at the latest, so an expired code is reported when it expires.
    const waitUntil = Math.min(clock.now() + Math.max(interval, pause), deadline);
    pause = 0;
    while (clock.now() < waitUntil) {
      if (tty) {
        const left = Math.max(0, Math.round((deadline - clock.now()) / 1000));
        say(`\r${spinner[frame++ % spinner.length]} Waiting for approval… ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left `);
      }
      await clock.sleep(tty ? 100 : Math.max(0, waitUntil - clock.now()));
    }
    const answer = await postJson(server, "/api/auth/device/token", { grant_type: deviceGrant, device_code: code.device_code, client_id: clientId });
    const error = answer.json.error as string | undefined;
    if (answer.status === 200 && typeof answer.json.access_token === "string") {
      if (tty) say("\r\x1b[K");
      const token = answer.json.access_token;
      const me = await checkToken(server, token);
      if (!me.ok) throw new CliError(`The sign-in was approved, but asking who it is failed: ${me.message}. Run academy login to try again.`);
      const file = await saveToken(server, token, me.email);
      if (options.json) await printJson({ signedIn: true, email: me.email, name: me.name, server, credentials: file });
      else process.stdout.write(`${paint("green", "✓")} Signed in to ${server} as ${me.email}. The token is in ${file}.\n`);
      return;
    }
    // Past the code's life no answer can be an approval: say so, whatever the server last said.
    const past = clock.now() >= deadline;
    if (error === "authorization_pending" && !past) continue;
    if (error === "slow_down" && !past) {
      interval += slowDownStepMs;
      continue;
    }
    // A limit on the server is a request to wait, not a failure: as long as it asks, within the code's life.
    if (answer.status === 429 && !past) {
      pause = answer.retryAfterSeconds * 1000;
      continue;
    }
    if (tty) say("\r\x1b[K");
    if (error === "access_denied") throw new CliError("The sign-in was denied in the browser. Run academy login to try again.");
    if (error === "expired_token" || past) throw new CliError("The code expired before it was approved. Run academy login for a new one.");
    throw new CliError(`The sign-in did not finish: ${String(answer.json.error_description ?? error ?? answer.status)}. Run academy login to try again.`);
  }
}

/**
 * `academy logout`: the server forgets the token, then this machine does. The token is removed here
 * even when the server cannot be told, which is said, with where to end the session instead.
 */
export async function logout(server: string, options: { json: boolean }): Promise<void> {
  const stored = await readToken(server);
  const unended = stored ? await endSession(server, stored.token) : null;
  if (stored) await forgetToken(server);
  if (options.json) await printJson({ signedIn: false, server, ...(stored ? { endedOnServer: unended === null } : {}) });
  else if (!stored) process.stdout.write(`You were not signed in to ${server}.\n`);
  else if (unended === null) process.stdout.write(`Signed out of ${server}.\n`);
  else process.stdout.write(`Signed out on this machine (its token is deleted), but ${unended}: that session lasts until you sign it out in Settings → Signed-in devices.\n`);
}
