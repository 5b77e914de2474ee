// An app server of the end-to-end suite (playwright.config.ts): server/main.ts, started on a copy of the
// migrated template database (tests/support/database-templates.ts; Vitest's setup has made it when
// `npm test` gets here) instead of making and migrating its own, which took each of the suite's three
// app servers about four seconds of a core while the first tests waited. A first start on an empty
// DATA_DIR is tested by tests/integration/process.test.ts. Domains are looked up on a DNS stand-in of
// this process's own (tests/support/dns-server.ts), whose answers follow the domain's name.
import "../../server/module-resolution.ts";

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error("DATA_DIR is not set: the end-to-end servers each keep their data in a folder of their own.");
const { pgliteTemplateInto } = await import("./database-templates.ts");
await pgliteTemplateInto(dataDir, "migrated");
const { startDnsServer } = await import("./dns-server.ts");
const ipv4 = "192.0.2.10";
const ipv6 = "2001:db8::10";
process.env.HOSTING_ADDRESSES = `${ipv4},${ipv6}`;
process.env.HOSTING_DNS_SERVERS = (await startDnsServer({ ipv4: [ipv4], ipv6: [ipv6] })).address;
await import("../../server/main.ts");
