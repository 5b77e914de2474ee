// What a person chooses when they make an API key on /api-tools, and what the API enforces.

/** What a credential may do: read everything of its person's, and write their notes. */
export const apiScopes = ["read", "notes:write"] as const;
export type ApiScope = (typeof apiScopes)[number];

export const keyLimits = { name: 60, perUser: 20 } as const;
/** Lifetimes offered, in days; null is "never expires". */
export const keyLifetimes = [30, 90, 365, null] as const;
