// CPU (and wall) time a repeated operation takes in this process: the benches that measure in-process
// rather than over HTTP (render-floor-run.ts, compression.ts).

export interface PerRun {
  runs: number;
  cpuMs: number;
  wallMs: number;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

/** Runs `run` one after another for `seconds`, after `warmUps` uncounted runs: CPU and wall milliseconds each. */
export async function perRun(seconds: number, warmUps: number, run: () => Promise<unknown>): Promise<PerRun> {
  for (let i = 0; i < warmUps; i++) await run();
  const started = performance.now();
  const cpu = process.cpuUsage();
  let runs = 0;
  while (performance.now() - started < seconds * 1000) {
    await run();
    runs++;
  }
  const used = process.cpuUsage(cpu);
  return { runs, cpuMs: round((used.user + used.system) / 1000 / runs), wallMs: round((performance.now() - started) / runs) };
}
