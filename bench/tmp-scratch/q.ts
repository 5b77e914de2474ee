import { startServer } from "../server.ts";
import { learnerHeaders, prepareLearner } from "../signed-in.ts";
import { execSync } from "node:child_process";
const env = { DATA_DIR: "/tmp/fp2/dataq", DATABASE_URL: process.env.PGURL! };
const s = await startServer(4412, env);
const learner = await prepareLearner(s.url);
const h = learnerHeaders(learner);
for (const p of process.argv.slice(2)) await fetch(s.url + p, { headers: h });
execSync(`su postgres -c "psql -h 127.0.0.1 -p 55432 -c \\"alter system set log_statement='all'\\" -c \\"select pg_reload_conf()\\""`);
await new Promise(r => setTimeout(r, 500));
for (const p of process.argv.slice(2)) {
  execSync(`su postgres -c "psql -h 127.0.0.1 -p 55432 -c \\"select 'MARK ${p}'\\""`);
  await fetch(s.url + p, { headers: h });
}
execSync(`su postgres -c "psql -h 127.0.0.1 -p 55432 -c \\"alter system reset log_statement\\" -c \\"select pg_reload_conf()\\""`);
await s.stop();
