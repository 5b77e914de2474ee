import { and, eq, ne } from "drizzle-orm";
import { z } from "zod";
import { nameLength } from "../../common/limits.ts";
import type { FieldCipher } from "../crypto/field-encryption.ts";
import type { Db } from "../db/client.ts";
import { user } from "../db/schema.ts";
import type { FileStorage } from "../storage/index.ts";
import { keyOfUrl } from "../storage/keys.ts";
import { consumeThrottle } from "../auth/throttle.ts";
import { PhotoError, processProfilePhoto } from "./profile-photo.ts";
import { updateUserDocument } from "./user-document.ts";

const photoUploads = { windowSeconds: 60 * 60, max: 20 };

/** A person's name, as the profile form and Better Auth's update-user endpoint both take it. */
export const profileName = z
  .string({ error: "Tell us your name." })
  .trim()
  .min(1, "Tell us your name.")
  .max(nameLength.max, `Keep your name under ${nameLength.max} characters.`)
  // Line breaks and other control characters have no place in a printed name (and PostgreSQL refuses NUL).
  .refine((name) => !/\p{Cc}/u.test(name), "Your name can only contain printable characters.");

export const photoOnlyByUpload = "Your photo can only be changed by uploading one on your profile page.";

export type AccountUpdate = { ok: true; name: string } | { ok: false; message: string };

/**
 * What POST /api/auth/update-user may change: the name, checked as the profile form checks it.
 * The photo is never taken from a request: only a photo the server stored for this person (see
 * setProfilePhoto) becomes their image, so no one can point theirs at a tracker, a script or
 * someone else's photo.
 */
export function parseAccountUpdate(body: unknown): AccountUpdate {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { ok: false, message: "Send your new name as a JSON object: {\"name\": \"…\"}." };
  const { name, ...rest } = body as Record<string, unknown>;
  if ("image" in rest) return { ok: false, message: photoOnlyByUpload };
  const others = Object.keys(rest);
  if (others.length > 0) return { ok: false, message: `Only your name can be changed here, not ${others.join(", ")}.` };
  const parsed = profileName.safeParse(name);
  return parsed.success ? { ok: true, name: parsed.data } : { ok: false, message: parsed.error.issues[0]?.message ?? "Tell us your name." };
}

export interface PhotoServices {
  db: Db;
  cipher: FieldCipher;
  storage: FileStorage;
}

/**
 * Makes this upload the person's photo, or removes their photo when there is none: the file is
 * checked and re-encoded, stored under a new unguessable name, and set on the account and the user
 * document; the file it replaces is deleted. Returns the new photo's URL. Throws PhotoError.
 */
export async function setProfilePhoto(services: PhotoServices, userId: string, upload: Buffer | null): Promise<string | null> {
  const { db, cipher, storage } = services;
  if (upload) {
    // Decoding a photo costs real CPU; nobody changes theirs twenty times an hour.
    const limit = await consumeThrottle(db, `photo:${userId}`, photoUploads);
    if (!limit.allowed) {
      const minutes = Math.max(1, Math.ceil(limit.retryAfterSeconds / 60));
      throw new PhotoError(`You have changed your photo ${photoUploads.max} times in the last hour. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, 429);
    }
  }
  if (!upload) {
    // Removing: the file goes first, so when the storage cannot delete it nothing has changed.
    const [account] = await db.select({ image: user.image }).from(user).where(eq(user.id, userId));
    if (account?.image) await removeOwnPhoto(services, userId, account.image);
  }
  const url = upload ? await storage.put(`avatars/${userId}`, await processProfilePhoto(upload), "webp") : null;
  const previous = await db.transaction(async (tx) => {
    const [account] = await tx.select({ image: user.image }).from(user).where(eq(user.id, userId)).for("update");
    await tx.update(user).set({ image: url, updatedAt: new Date() }).where(eq(user.id, userId));
    await updateUserDocument(tx, cipher, userId, { profilePicUrl: url ?? "" });
    return account?.image ?? null;
  });
  if (upload && previous && previous !== url) await removeOwnPhoto(services, userId, previous);
  return url;
}

/**
 * Deletes the photo file at `url` only if it is this person's: stored under their own key prefix, or
 * stored before keys named their owner and shown by no other account. A URL an account got any other
 * way (an identity provider's picture, a crafted value) is left alone.
 */
export async function removeOwnPhoto(services: Pick<PhotoServices, "db" | "storage">, userId: string, url: string): Promise<void> {
  const key = keyOfUrl(url);
  if (!key) return;
  if (key.startsWith(`avatars/${userId}/`)) return services.storage.remove(url);
  // An older key ("avatars/<32 hex>.webp") names no owner: its file is this person's unless another account shows it.
  if (key.split("/").length !== 2) return;
  const [other] = await services.db.select({ id: user.id }).from(user).where(and(eq(user.image, url), ne(user.id, userId))).limit(1);
  if (!other) await services.storage.remove(url);
}
