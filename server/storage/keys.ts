import { randomBytes } from "node:crypto";

/** Uploaded files are served at this path followed by their key. */
export const uploadsPath = "/uploads/";

/** What is uploaded; a new kind of file gets its word here. */
const kinds = ["avatars"];

const contentTypes = { webp: "image/webp", jpg: "image/jpeg", png: "image/png" } as const;

export type UploadExtension = keyof typeof contentTypes;

// A kind, optionally whose files they are ("avatars/<userId>"), then a random name. Keys allow nothing
// else, so none climbs out of the uploads folder or names any other object in the bucket.
const prefixSource = `(?:${kinds.join("|")})(?:/[A-Za-z0-9_-]{1,64})?`;
const prefixPattern = new RegExp(`^${prefixSource}$`);
const keyPattern = new RegExp(`^${prefixSource}/([a-f0-9]{32})\\.(${Object.keys(contentTypes).join("|")})$`);

/** A new key under `prefix`: `<prefix>/<32 hex>.<extension>`, never made before. */
export function newKey(prefix: string, extension: UploadExtension): string {
  if (!prefixPattern.test(prefix)) {
    throw new Error(`"${prefix}" cannot prefix an upload: it must be ${kinds.join(" or ")}, optionally followed by "/" and an owner id of letters, digits, "_" or "-".`);
  }
  if (!Object.hasOwn(contentTypes, extension)) throw new Error(`".${extension}" files cannot be uploaded: only ${Object.keys(contentTypes).join(", ")}.`);
  return `${prefix}/${randomBytes(16).toString("hex")}.${extension}`;
}

export interface UploadKey {
  contentType: string;
  /** A key's bytes never change (every upload gets a new key), so its random part is a strong validator. */
  etag: string;
}

/** What a key serves as, or null when no `put` could have made it. */
export function parseKey(key: string): UploadKey | null {
  const match = keyPattern.exec(key);
  if (!match) return null;
  return { contentType: contentTypes[match[2] as UploadExtension], etag: `"${match[1]}"` };
}

/** The key a URL from `put` names, or null for any other URL. */
export function keyOfUrl(url: string): string | null {
  const key = url.startsWith(uploadsPath) ? url.slice(uploadsPath.length) : "";
  return parseKey(key) ? key : null;
}
