// NODE_ENV names two things. For this app it is the configuration: `production` requires the real
// secrets and keys (DESIGN.md). For React and other libraries it picks the build they load, and
// React's development build renders about half as fast. `npm start` is meant to be fast whatever
// the configuration, so the server entry imports this module first: it keeps the operator's
// NODE_ENV for the configuration, then sets NODE_ENV to production before any library reads it.
// Only `npm run dev` (server/dev.ts) runs React's development build.

/** NODE_ENV as the operator set it, which chooses the configuration. */
export const configuredEnvironment = process.env.NODE_ENV;
process.env.NODE_ENV = "production";
