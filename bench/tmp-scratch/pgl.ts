import { PGlite } from "@electric-sql/pglite";
const rss = () => Math.round(process.memoryUsage().rss / 1048576);
console.log("before", rss());
const conf = process.argv[2] ? process.argv[2].split(",") : undefined;
const db = await PGlite.create("/tmp/prof/pgl-test", conf ? { postgresqlconf: conf } : {});
for (const s of ["shared_buffers", "work_mem", "temp_buffers", "maintenance_work_mem", "wal_buffers", "max_connections"]) console.log(s, (await db.query(`show ${s}`)).rows[0]);
console.log("after open", rss());
await db.close();
