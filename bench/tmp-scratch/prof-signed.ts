import { execSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { startServer } from "../server.ts";
import { prepareLearner } from "../signed-in.ts";
import { wrk } from "../wrk.ts";
const dir = process.argv[2] ?? "/tmp/prof/signed";
const paths = (process.argv[3] ?? "/account,/account/courses,/notes,/courses/webdevfrontendcourse/MainPage,/courses/webdevfrontendcourse/submodule/1-2,/course/webdevfrontendcourse").split(",");
const server = await startServer(4500, { NODE_OPTIONS: process.env.PROF ? `--cpu-prof --cpu-prof-dir=${dir}` : "", ...(process.env.EXTRA_ENV ? JSON.parse(process.env.EXTRA_ENV) : {}) });
const buyer = await prepareLearner(server.url);
writeFileSync("/tmp/prof/buyer.json", JSON.stringify(buyer));
const headers = [`Cookie: ${buyer.cookie}`, `X-Forwarded-For: ${buyer.address}`];
for (const p of paths) { const r = wrk("x", server.url + p, { seconds: Number(process.env.SECS ?? 8), connections: 20, headers }); console.log(p, r.requestsPerSecond, "req/s p50", r.p50Ms, "p99", r.p99Ms, "err", r.errors); }
await server.stop();
if (process.env.PROF) console.log(execSync(`node /tmp/prof/summarize.mjs ${dir}/*.cpuprofile 45`).toString());
