/** Where the interactive API reference's module (Scalar's module build, its parts under chunks/) is served from this origin. */
export const apiReferenceModule = { directory: "/api-tools/scalar", entry: "/api-tools/scalar/standalone.esm.js" } as const;
