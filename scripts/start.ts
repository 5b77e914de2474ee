// `npm start`: builds when the build is missing or older than its sources, then serves it.
import { loadEnvFile } from "../server/env-file.ts";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { projectRoot, sourceHash, stampFile } from "./source-hash.ts";

loadEnvFile();

const current = await sourceHash();
const built = existsSync(stampFile()) ? readFileSync(stampFile(), "utf8") : "";
if (built !== current || !existsSync(path.join(projectRoot, "build/server/index.js"))) {
  console.log(built ? "Sources changed since the last build; rebuilding…" : "No build yet; building…");
  // The build ends by writing the stamp (scripts/stamp-build.ts).
  const result = spawnSync("npm", ["run", "build"], { cwd: projectRoot, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await import("../server/main.ts");
