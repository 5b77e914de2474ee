// `npm run backup -- [FILE]`: the configured database (embedded or PostgreSQL) into one file; see docs/backup.md.
// Node's module resolution is set up first (server/module-resolution.ts), then the command itself is loaded.
import "../server/module-resolution.ts";

await import("./commands/backup.ts");
