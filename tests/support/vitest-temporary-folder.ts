// Vitest's setupFiles for the database suites: every temporary folder a test file makes, and every one
// the servers and commands it starts make (they inherit the environment), goes in the run's own folder
// (vitest-global-setup.ts), removed when the run ends. The template databases stay where they are kept
// between runs (database-templates.ts reads ACADEMY_TEST_CACHE_DIR before this changes TMPDIR).
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";

process.env.ACADEMY_TEST_CACHE_DIR ??= path.join(tmpdir(), "academy-test-databases");
process.env.TMPDIR = inject("temporaryFolder");
// The servers and commands a test starts keep Node's compiled code for the next one (about a third of a second each).
process.env.NODE_COMPILE_CACHE = path.join(process.env.TMPDIR, "node-compile-cache");
