// `npm run restore -- FILE [--force]`: a file made by `npm run backup` into the configured database; see docs/backup.md.
// Node's module resolution is set up first (server/module-resolution.ts), then the command itself is loaded.
import "../server/module-resolution.ts";

await import("./commands/restore.ts");
