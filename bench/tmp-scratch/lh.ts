import { lighthouse } from "../lighthouse.ts";
for (const url of process.argv.slice(2)) { const r = lighthouse(url); console.log(r.path, r.performance, r.fcpMs, r.lcpMs); }
