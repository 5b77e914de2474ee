import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: on CI's two, one file at a time (522 s serially, 395 s with two).
    maxWorkers: 2,
    projects: [
      // The tests beside the code: no database, no build, seconds (`npm run check`).
      { extends: true, test: { name: "unit", include: ["server/**/*.test.ts", "common/**/*.test.ts", "app/**/*.test.{ts,tsx}"] } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          exclude: ["tests/integration/fuzz-*.test.ts"],
          globalSetup: ["tests/support/vitest-global-setup.ts"],
          setupFiles: ["tests/support/vitest-temporary-folder.ts", "tests/support/vitest-production-libraries.ts"],
          // Each worker imports the server's modules once for all its files, not once per file (~3 s of a core each, 100 s of the suite):
          // the files share no module state they rely on (each opens its own database and app), and one that sets the environment undoes it.
          isolate: false,
        },
      },
      {
        // After the rest, its two halves side by side: each keeps a core busy for half a minute and would starve the tests that time a server's start.
        extends: true,
        test: {
          name: "fuzz",
          include: ["tests/integration/fuzz-*.test.ts"],
          globalSetup: ["tests/support/vitest-global-setup.ts"],
          setupFiles: ["tests/support/vitest-temporary-folder.ts", "tests/support/vitest-production-libraries.ts"],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
