// Limits the browser states and the server enforces: each is written here once, and the forms,
// the domain functions and the API's schemas all read it from here.

/** A password's length, in characters (DESIGN.md: at least 8; NIST SP 800-63B). */
export const passwordLength = { min: 8, max: 128 } as const;

/** A person's name, on the profile, at sign-up and on a certificate. */
export const nameLength = { max: 100 } as const;

/** A note's title and body, in characters, for the lesson panel, the notes page and /api/v1/notes. */
export const noteLength = { title: 200, body: 20_000 } as const;

/** A profile photo as uploaded, before the server turns it into a 256-pixel WebP. */
export const profilePhoto: { maxMegabytes: number; maxBytes: number; types: readonly string[] } = {
  maxMegabytes: 2,
  maxBytes: 2 * 1024 * 1024,
  types: ["image/jpeg", "image/png", "image/webp"],
};
