// The render floor, measured in a process of its own (bench/render-floor.ts starts it): the app's
// services over the data a prepared server left (DATA_DIR, DATABASE_URL in the environment), and
// for each page in argv's JSON, one request after another for `seconds`:
//   full      the whole app in-process (Hono, security headers, session, loaders on the database,
//             React Router, React, brotli): what a request costs less the socket;
//   in memory the same app with every loader's data and the session's viewer kept from a first
//             request: no database, no session look-up;
//   floor     React Router's request handler alone with that data: no Hono, no compression;
//   React     the part of the floor spent in entry.server's render of the document.
// It prints one JSON line: each page's CPU (and wall) milliseconds a request in each mode.
// As the server's entry does: module resolution first, then React's production build whatever NODE_ENV configures.
import "../server/module-resolution.ts";
import { configuredEnvironment } from "../server/production-libraries.ts";

const { runFloor } = await import("./render-floor-run.ts");
const environment = { ...process.env, NODE_ENV: configuredEnvironment };
process.stdout.write(`${JSON.stringify(await runFloor(JSON.parse(process.argv[2] ?? "{}"), environment))}\n`);
process.exit(0);
