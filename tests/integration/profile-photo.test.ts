import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { databaseKinds, identitySuite, testCatalog } from "./helpers.ts";
import { user } from "../../server/db/schema.ts";
import { PhotoError, processProfilePhoto } from "../../server/users/profile-photo.ts";
import { createDiskStorage } from "../../server/storage/disk.ts";
import { setProfilePhoto } from "../../server/users/profile.ts";

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: "#3b82f6" } }).png().toBuffer();

describe("a photo with more pixels than a profile photo needs", () => {
  it("is refused from its header, before it is decoded, however few bytes it has", async () => {
    // 40 megapixels of one colour: a few hundred kilobytes that once cost seconds of CPU to decode.
    const huge = await png(8_000, 5_000);
    expect(huge.length).toBeLessThan(2 * 1024 * 1024);
    await expect(processProfilePhoto(huge)).rejects.toThrow(new PhotoError("That photo is 8,000 × 5,000 pixels. Choose one of 24 megapixels or fewer."));
    expect((await sharp(await processProfilePhoto(await png(4_000, 3_000))).metadata()).width).toBe(256);
  });
});

describe.each(databaseKinds)("photo uploads on $name", ({ open }) => {
  const suite = identitySuite(open, testCatalog([]));

  it("are limited per person to 20 an hour, and a refused one changes nothing", async () => {
    const { id } = await suite.signUp();
    const { db } = suite;
    const { cipher } = suite.identity;
    const storage = createDiskStorage(await mkdtemp(path.join(tmpdir(), "academy-photos-")));
    const photo = await png(300, 300);
    let url: string | null = null;
    for (let i = 0; i < 20; i++) url = await setProfilePhoto({ db, cipher, storage }, id, photo);
    const refused = await setProfilePhoto({ db, cipher, storage }, id, photo).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PhotoError);
    expect((refused as PhotoError).status).toBe(429);
    expect((refused as PhotoError).message).toMatch(/^You have changed your photo 20 times in the last hour\. Try again in \d+ minutes?\.$/);
    expect((await db.select({ image: user.image }).from(user).where(eq(user.id, id)))[0]?.image).toBe(url);
    // Removing a photo is never refused.
    expect(await setProfilePhoto({ db, cipher, storage }, id, null)).toBeNull();
    // Another person is not held back by this one's uploads.
    const other = await suite.signUp();
    expect(await setProfilePhoto({ db, cipher, storage }, other.id, photo)).toMatch(/^\/uploads\//);
  });
});
