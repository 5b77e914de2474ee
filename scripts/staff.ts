// `npm run staff -- grant|revoke <email> <role>` and `npm run staff -- list`: the back office's roles from the server's shell; see docs/operations.md "Staff".
// Node's module resolution is set up first (server/module-resolution.ts), then the command itself is loaded.
import "../server/module-resolution.ts";

await import("./commands/staff.ts");
