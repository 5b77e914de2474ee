// The server and the operator's commands as tests start them: one way to start them and read what they wrote.
import { spawn, type ChildProcessByStdio, type SpawnOptions } from "node:child_process";
import type { Readable } from "node:stream";

/**
 * V8 compiles the embedded database's WebAssembly with its baseline compiler only. A process a test
 * starts lives seconds; by default V8 also recompiles its hot functions with the optimising compiler
 * in the background, about a second of a core per start that such a process never earns back, taken
 * from the other tests on a two-core machine. Only how fast the code runs changes, never what it does;
 * `npm start` and the end-to-end servers keep V8's default, which long-running servers want.
 */
const testNodeFlags = ["--liftoff-only"];

export type NodeProcess = ChildProcessByStdio<null, Readable, Readable>;

/** `node ARGS` on this Node, with the tests' flags, no input and its output piped. */
export function spawnNode(args: string[], options: Omit<SpawnOptions, "stdio">): NodeProcess {
  return spawn(process.execPath, [...testNodeFlags, ...args], { ...options, stdio: ["ignore", "pipe", "pipe"] }) as NodeProcess;
}

export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** What a process wrote to each stream and how it ended, once it has. */
export function outputAndExit(child: NodeProcess): Promise<Ran> {
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/** `node ARGS` to its end. */
export const runNode = (args: string[], options: Omit<SpawnOptions, "stdio">): Promise<Ran> => outputAndExit(spawnNode(args, options));

/** The environment of a process a test starts: the test's own, less its database, keys and mode, plus what the test names. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ENCRYPTION_KEY: _key, ENCRYPTION_KEY_PREVIOUS: _previous, NODE_ENV: _mode, ...inherited } = process.env;
  return { ...inherited, ...env };
}
