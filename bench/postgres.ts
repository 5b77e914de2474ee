// A throwaway PostgreSQL cluster for the benchmarks, from Debian's postgresql package, owned by the
// postgres user as .ci/run makes one; BENCH_DATABASE_URL names an existing database instead.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface BenchPostgres {
  /** A database URL for a fresh, empty database. */
  newDatabase(): string;
  stop(): void;
}

const asPostgres = (command: string) => execFileSync("su", ["postgres", "-c", command], { cwd: "/", stdio: ["ignore", "ignore", "inherit"] });

/** null when neither BENCH_DATABASE_URL nor a PostgreSQL server binary is available. */
export function startBenchPostgres(port: number): BenchPostgres | null {
  let databases = 0;
  const external = process.env.BENCH_DATABASE_URL;
  if (external) {
    return {
      newDatabase() {
        const name = `academy_bench_${process.pid}_${++databases}`;
        execFileSync("psql", [external, "-qc", `create database ${name}`], { stdio: ["ignore", "ignore", "inherit"] });
        const url = new URL(external);
        url.pathname = `/${name}`;
        return url.toString();
      },
      stop() {},
    };
  }
  const versions = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql").toSorted((a, b) => Number(a) - Number(b)) : [];
  const bin = versions.length ? `/usr/lib/postgresql/${versions.at(-1)}/bin` : null;
  if (!bin || !existsSync(path.join(bin, "postgres"))) return null;
  const dir = mkdtempSync(path.join(tmpdir(), "academy-bench-pg-"));
  execFileSync("chown", ["postgres", dir]);
  asPostgres(`${bin}/initdb -D ${dir}/data -U postgres --auth=trust -E UTF8`);
  asPostgres(`${bin}/pg_ctl -D ${dir}/data -o '-p ${port} -k ${dir} -c listen_addresses=127.0.0.1' -l ${dir}/log -w start`);
  return {
    newDatabase() {
      const name = `academy_bench_${++databases}`;
      asPostgres(`psql -h 127.0.0.1 -p ${port} -U postgres -qc 'create database ${name}'`);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop() {
      asPostgres(`${bin}/pg_ctl -D ${dir}/data -m fast stop`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
