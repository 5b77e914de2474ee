// `npm run rotate-key`: every encrypted field re-encrypted under a new key while the servers run; see docs/operations.md "Encryption keys".
// Node's module resolution is set up first (server/module-resolution.ts), then the command itself is loaded.
import "../server/module-resolution.ts";

await import("./commands/rotate-key.ts");
