import path from "node:path";
import { childEnv, spawnNode, type NodeProcess } from "./node-process.ts";

const projectRoot = path.resolve(import.meta.dirname, "../..");

export interface ServerProcess {
  child: NodeProcess;
  /** Everything it has written so far, stdout and stderr together. */
  output: () => string;
  /** Its exit code, once it has exited. */
  exited: Promise<number | null>;
}

/** A complete production configuration that takes no money and sends mail nowhere: for processes that must start in production. */
export const productionSandboxEnv = {
  NODE_ENV: "production",
  PUBLIC_URL: "https://academy.example",
  AUTH_SECRET: "p".repeat(40),
  ENCRYPTION_KEY: Buffer.alloc(32, 9).toString("base64"),
  SMTP_URL: "smtp://127.0.0.1:1",
  PAYMENT_PROVIDER: "sandbox",
  PAYMENT_ALLOW_SANDBOX: "true",
};

/** `node <script>` in the project (server/main.ts by default), as `npm start` runs it, with NODE_ENV, the database and keys unset unless given. */
export function startProcess(env: Record<string, string>, args: string[] = ["server/main.ts"]): ServerProcess {
  const child = spawnNode(args, { cwd: projectRoot, env: childEnv({ HOST: "127.0.0.1", LOG_LEVEL: "info", ...env }) });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** The port in the banner a server prints once it listens, if it has. */
export const listeningPort = (output: string) => /Academy is running at \S+ \(listening on \S+:(\d+)\)/.exec(output)?.[1];

/** The address the server says it listens on ("Academy is running at … (listening on HOST:PORT)"), once it does; throws with its output when it exits or takes too long. */
export async function listeningUrl(server: ServerProcess): Promise<string> {
  // A cold start imports the whole server (Better Auth, Drizzle, Shiki, PGlite): seconds on a quiet
  // machine, and several times that on one core shared with other test files.
  const deadline = Date.now() + 90_000;
  for (;;) {
    const port = listeningPort(server.output());
    if (port) return `http://127.0.0.1:${port}`;
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    if (Date.now() > deadline) throw new Error(`server did not start:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The JSON log lines it has written whose message is `msg`. */
export function logLines(server: ServerProcess, msg: string): Record<string, unknown>[] {
  return server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{") && line.includes(`"msg":${JSON.stringify(msg)}`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
