// Vitest's setupFiles for the database suites: the app a test builds in its own process loads its
// libraries as `npm start` loads them (server/production-libraries.ts), not in the "test" mode Vitest
// sets. Better Auth skips its origin check in that mode, and React's development build renders at
// about half the speed; the processes a test starts are given their NODE_ENV by the test.
import "../../server/production-libraries.ts";
