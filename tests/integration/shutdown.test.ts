import { Agent, type ClientRequest, type IncomingHttpHeaders, request } from "node:http";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { migratedDataDir } from "../support/database-templates.ts";
import { listeningUrl, logLines, startProcess, type ServerProcess } from "../support/server-process.ts";

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  socket: Socket;
}

/** Sends a request on `agent` and reads its whole answer; `send` writes the body (end() when there is none). */
function exchange(url: string, options: { method?: string; headers?: Record<string, string>; agent: Agent }, send: (req: ClientRequest) => void = (req) => req.end()): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "GET", headers: options.headers, agent: options.agent }, (response) => {
      // Read now: a kept-alive socket is handed back to the agent, and taken off the response, at its end.
      const { socket } = response;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body, socket }));
      response.on("error", reject);
    });
    req.on("error", reject);
    send(req);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const running: ServerProcess[] = [];
afterEach(() => {
  for (const server of running.splice(0)) server.child.kill("SIGKILL");
});

async function startServer(env: Record<string, string>) {
  const server = startProcess({ PORT: "0", DATA_DIR: await migratedDataDir("academy-shutdown-"), ...env });
  running.push(server);
  return { server, url: await listeningUrl(server) };
}

/** Sends SIGTERM and waits until the server has logged that it is shutting down; the time it was sent. */
async function terminate(server: ServerProcess): Promise<number> {
  const sent = Date.now();
  server.child.kill("SIGTERM");
  await expect.poll(() => logLines(server, "shutting down").length, { interval: 20 }).toBe(1);
  return sent;
}

const signIn = JSON.stringify({ email: "nobody@example.com", password: "not the password at all" });
const signInHeaders = { "content-type": "application/json", "content-length": String(Buffer.byteLength(signIn)) };

describe("shutting down with keep-alive clients", { timeout: 120_000 }, () => {
  it("answers a request that was in flight at SIGTERM in full with Connection: close, takes no more on that connection and exits at once", async () => {
    const { server, url } = await startServer({ SHUTDOWN_DELAY_MS: "0", SHUTDOWN_TIMEOUT_MS: "20000" });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect((await exchange(`${url}/healthz`, { agent })).headers.connection).toBe("keep-alive");

    // A sign-in whose body is still arriving: the connection is busy when the signal comes.
    let sending: ClientRequest | undefined;
    const inFlight = exchange(`${url}/api/auth/sign-in/email`, { method: "POST", headers: signInHeaders, agent }, (req) => {
      req.write(signIn.slice(0, 10));
      sending = req;
    });
    await sleep(500);
    const sent = await terminate(server);
    sending?.end(signIn.slice(10));
    const answered = await inFlight;
    expect(answered.status).toBe(401);
    expect(answered.body).toContain("Invalid email or password");
    expect(answered.headers.connection).toBe("close");

    // The client's next request cannot go on that connection, and the server no longer accepts new ones.
    await expect(exchange(`${url}/healthz`, { agent })).rejects.toMatchObject({ code: "ECONNREFUSED" });
    expect(await server.exited).toBe(0);
    expect(Date.now() - sent).toBeLessThan(8_000);
    expect(server.output()).not.toContain("did not finish");
    expect(logLines(server, "stopped")).toHaveLength(1);
  });

  it("closes idle keep-alive connections at SIGTERM and answers with Connection: close while it delays", async () => {
    const { server, url } = await startServer({ SHUTDOWN_DELAY_MS: "3000", SHUTDOWN_TIMEOUT_MS: "20000" });
    const idle = new Agent({ keepAlive: true, maxSockets: 1 });
    const { socket } = await exchange(`${url}/healthz`, { agent: idle });
    const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now())));
    expect(socket.destroyed).toBe(false);

    const sent = await terminate(server);
    expect((await closed) - sent).toBeLessThan(1_500);

    // During SHUTDOWN_DELAY_MS a new client is still answered, once per connection.
    const fresh = new Agent({ keepAlive: true, maxSockets: 1 });
    const ready = await exchange(`${url}/readyz`, { agent: fresh });
    expect(ready.status).toBe(503);
    expect(ready.headers.connection).toBe("close");

    expect(await server.exited).toBe(0);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(3_000);
    expect(Date.now() - sent).toBeLessThan(10_000);
    expect(server.output()).not.toContain("did not finish");
  });

  it("warns only when SHUTDOWN_TIMEOUT_MS cuts a request still in flight", async () => {
    const { server, url } = await startServer({ SHUTDOWN_DELAY_MS: "0", SHUTDOWN_TIMEOUT_MS: "1500" });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    // A body that never finishes arriving: the request is still in flight when time is up.
    const stuck = exchange(`${url}/api/auth/sign-in/email`, { method: "POST", headers: signInHeaders, agent }, (req) => req.write(signIn.slice(0, 10)));
    const outcome = stuck.then(
      () => "answered",
      (error: NodeJS.ErrnoException) => error.code,
    );
    await sleep(500);
    const sent = await terminate(server);
    expect(await outcome).toMatch(/ECONNRESET/);
    expect(await server.exited).toBe(0);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(1_500);
    expect(logLines(server, "in-flight requests did not finish in time; closing them")).toMatchObject([{ requests: 1 }]);
  });
});
