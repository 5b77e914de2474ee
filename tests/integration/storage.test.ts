import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { eq } from "drizzle-orm";
import S3rver from "s3rver";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientIpHeader } from "../../server/auth/index.ts";
import type { S3Settings } from "../../server/config.ts";
import { user } from "../../server/db/schema.ts";
import { createStorage, type FileStorage } from "../../server/storage/index.ts";
import { uploadsPath } from "../../server/storage/keys.ts";
import { updateUserDocument } from "../../server/users/user-document.ts";
import { childEnv, runNode } from "../support/node-process.ts";
import { contentDir, projectRoot, startTestApp, type TestApp } from "./helpers.ts";

const bucket = "academy-test-uploads";
let s3rver: S3rver;
let endpoint = "";
// s3rver knows one key pair, S3RVER/S3RVER, and checks only the key id of a SigV4 request.
const s3Settings = (name = bucket, accessKeyId = "S3RVER"): S3Settings => ({
  bucket: name,
  region: "us-east-1",
  endpoint,
  credentials: { accessKeyId, secretAccessKey: "S3RVER" },
  forcePathStyle: true,
});
/** Straight to the bucket, past our storage: to plant objects it must not serve and to see what it stored. */
let bucketClient: S3Client;

beforeAll(async () => {
  s3rver = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: await mkdtemp(path.join(tmpdir(), "academy-s3rver-")), configureBuckets: [{ name: bucket }] });
  const { port } = await s3rver.run();
  endpoint = `http://127.0.0.1:${port}`;
  const { credentials, region, forcePathStyle } = s3Settings();
  bucketClient = new S3Client({ endpoint, credentials, region, forcePathStyle });
});
afterAll(async () => {
  bucketClient.destroy();
  await s3rver.close();
});

async function readObject(key: string): Promise<Buffer | null> {
  try {
    const object = await bucketClient.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return Buffer.from((await object.Body?.transformToByteArray()) ?? []);
  } catch (error) {
    if (error instanceof NoSuchKey) return null;
    throw error;
  }
}

interface OpenedStorage {
  storage: FileStorage;
  /** Writes bytes under a raw key, as something other than our storage might have. */
  plant(key: string, body: Buffer): Promise<void>;
  /** The bytes under a raw key, or null. */
  raw(key: string): Promise<Buffer | null>;
}

const kinds: { name: string; open: () => Promise<OpenedStorage> }[] = [
  {
    name: "disk",
    async open() {
      const root = path.join(await mkdtemp(path.join(tmpdir(), "academy-storage-")), "uploads");
      const file = (key: string) => path.join(root, key);
      return {
        storage: await createStorage({ s3: undefined, diskRoot: root }),
        async plant(key, body) {
          await mkdir(path.dirname(file(key)), { recursive: true });
          await writeFile(file(key), body);
        },
        raw: (key) => readFile(file(key)).catch(() => null),
      };
    },
  },
  {
    name: "S3 (s3rver)",
    async open() {
      return {
        storage: await createStorage({ s3: s3Settings(), diskRoot: path.join(tmpdir(), "academy-never-written") }),
        plant: async (key, body) => void (await bucketClient.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }))),
        raw: readObject,
      };
    },
  },
];

const hex = () => randomBytes(16).toString("hex");
const urlPattern = (prefix: string, extension: string) => new RegExp(`^/uploads/${prefix}/[a-f0-9]{32}\\.${extension}$`);

describe.each(kinds)("file storage on $name", ({ name, open }) => {
  let opened: OpenedStorage;
  beforeAll(async () => {
    opened = await open();
  });

  it("is the kind the settings ask for", () => {
    expect(opened.storage.kind).toBe(name === "disk" ? "disk" : "s3");
  });

  it("stores each file under a new unguessable key and gives the same bytes back", async () => {
    const { storage } = opened;
    const body = randomBytes(3000);
    const url = await storage.put("avatars", body, "webp");
    expect(url).toMatch(urlPattern("avatars", "webp"));
    expect(await storage.get(url.slice(uploadsPath.length))).toEqual(body);
    expect(await opened.raw(url.slice(uploadsPath.length))).toEqual(body);
    const again = await storage.put("avatars", body, "webp");
    expect(again).not.toBe(url);
  });

  it("keeps an owner's files under the owner's prefix", async () => {
    const body = randomBytes(100);
    const url = await opened.storage.put("avatars/AbC123xyz_-9", body, "png");
    expect(url).toMatch(urlPattern("avatars/AbC123xyz_-9", "png"));
    expect(await opened.storage.get(url.slice(uploadsPath.length))).toEqual(body);
  });

  it("answers null for a key nobody stored", async () => {
    expect(await opened.storage.get(`avatars/${hex()}.webp`)).toBeNull();
    expect(await opened.storage.get(`avatars/someone/${hex()}.jpg`)).toBeNull();
  });

  it("removes a file for good; removing it again, or an unknown or foreign URL, changes nothing", async () => {
    const { storage } = opened;
    const url = await storage.put("avatars", randomBytes(50), "webp");
    await storage.remove(url);
    expect(await storage.get(url.slice(uploadsPath.length))).toBeNull();
    await storage.remove(url);
    for (const other of [`/uploads/avatars/${hex()}.webp`, "https://lh3.googleusercontent.com/a/photo.jpg", "", "/uploads/", "javascript:alert(1)"]) {
      await expect(storage.remove(other)).resolves.toBeUndefined();
    }
  });

  it("serves and removes nothing outside the key pattern, even what sits beside its files", async () => {
    const { storage } = opened;
    const id = hex();
    const strangers = [`private/${id}.webp`, `Avatars/${id}.webp`, `avatars/${id}.svg`, `avatars/${id.slice(1)}.webp`, `avatars/a/b/${id}.webp`, `avatars/${id}.webp.bak`, `avatars/${id.toUpperCase()}.webp`];
    for (const key of strangers) {
      await opened.plant(key, Buffer.from("not yours"));
      expect(await storage.get(key), key).toBeNull();
      await storage.remove(uploadsPath + key);
      expect((await opened.raw(key))?.toString(), key).toBe("not yours");
    }
  });

  it("refuses to store under a prefix that is not a kind and an owner id, or a type it does not serve", async () => {
    const { storage } = opened;
    for (const prefix of ["../etc", "avatars/../..", "avatars/a/b", "Avatars", "", "avatars/", "avatars/a b"]) {
      await expect(storage.put(prefix, Buffer.from("x"), "webp"), prefix).rejects.toThrow("cannot prefix an upload");
    }
    await expect(storage.put("avatars", Buffer.from("<svg/>"), "svg" as "webp")).rejects.toThrow('".svg" files cannot be uploaded: only webp, jpg, png.');
  });
});

describe("disk storage", () => {
  it("never reads or deletes a file outside its folder, whatever the key says", async () => {
    const parent = await mkdtemp(path.join(tmpdir(), "academy-storage-"));
    const storage = await createStorage({ s3: undefined, diskRoot: path.join(parent, "uploads") });
    const id = hex();
    await writeFile(path.join(parent, `${id}.webp`), "secret");
    for (const key of [`../${id}.webp`, `avatars/../../${id}.webp`, `avatars/..%2F..%2F${id}.webp`, `/${parent}/${id}.webp`]) {
      expect(await storage.get(key), key).toBeNull();
      await storage.remove(uploadsPath + key);
    }
    expect(await readFile(path.join(parent, `${id}.webp`), "utf8")).toBe("secret");
  });
});

describe("S3 storage at start", () => {
  it("stops with a plain reason when the bucket is missing, refuses our credentials or cannot be reached", async () => {
    await expect(createStorage({ s3: s3Settings("academy-missing"), diskRoot: "" })).rejects.toThrow(
      `The S3 bucket "academy-missing" does not exist at ${endpoint}. Create it, or set S3_BUCKET to one that does.`,
    );
    await expect(createStorage({ s3: s3Settings(bucket, "NOT-A-KEY"), diskRoot: "" })).rejects.toThrow(
      `The S3 bucket "${bucket}" at ${endpoint} refused our credentials (403 Forbidden). Check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY`,
    );
    const closed = `http://127.0.0.1:${await closedPort()}`;
    await expect(createStorage({ s3: { ...s3Settings(), endpoint: closed }, diskRoot: "" })).rejects.toThrow(
      new RegExp(`^Could not reach the S3 bucket "${bucket}" at ${closed}: .*ECONNREFUSED.*Check S3_ENDPOINT, S3_REGION and the network\\.$`),
    );
  });

  it("makes the server exit with status 1 and the reason on stderr", { timeout: 60_000 }, async () => {
    const { code, stderr } = await runNode(["server/main.ts"], {
      cwd: projectRoot,
      env: childEnv({
        HOST: "127.0.0.1",
        PORT: "0",
        CONTENT_DIR: contentDir,
        DATA_DIR: await mkdtemp(path.join(tmpdir(), "academy-storage-process-")),
        S3_BUCKET: "academy-missing",
        S3_ENDPOINT: endpoint,
        S3_FORCE_PATH_STYLE: "true",
        S3_ACCESS_KEY_ID: "S3RVER",
        S3_SECRET_ACCESS_KEY: "S3RVER",
      }),
    });
    expect(code).toBe(1);
    expect(stderr).toContain(`The S3 bucket "academy-missing" does not exist at ${endpoint}. Create it, or set S3_BUCKET to one that does.\n`);
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});

/** A port that was free a moment ago and that nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.once("error", reject);
  });
}

describe("profile photos in S3, served by the app", () => {
  let t: TestApp;
  let storage: FileStorage;
  beforeAll(async () => {
    storage = await createStorage({ s3: s3Settings(), diskRoot: path.join(tmpdir(), "academy-never-written") });
    t = await startTestApp({ storage });
  });
  afterAll(() => t?.close());

  const origin = "http://academy.test";
  function send(url: string, init: RequestInit & { cookie?: string } = {}) {
    const headers = new Headers(init.headers);
    headers.set(clientIpHeader, `10.11.${randomBytes(2).join(".")}`);
    headers.set("origin", origin);
    if (init.cookie) headers.set("cookie", init.cookie);
    return t.app.fetch(new Request(`${origin}${url}`, { ...init, headers, redirect: "manual" }));
  }

  async function signedIn(name: string): Promise<{ id: string; cookie: string }> {
    const email = `storage-${randomBytes(4).toString("hex")}@example.com`;
    const response = await t.identity.auth.api.signUpEmail({ body: { name, email, password: "a good long password" }, asResponse: true });
    expect(response.status).toBe(200);
    const cookie = response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const { user: created } = (await response.json()) as { user: { id: string } };
    await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, created.id));
    return { id: created.id, cookie };
  }

  const imageOf = async (id: string) => (await t.database.db.select({ image: user.image }).from(user).where(eq(user.id, id)))[0]?.image;

  /** Uploads a photo through the profile form; returns the URL now on the account. */
  async function uploadPhoto(person: { id: string; cookie: string }): Promise<string> {
    const body = new FormData();
    body.set("intent", "photo");
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#ff6633" } }).png().toBuffer();
    body.set("photo", new File([new Uint8Array(png)], "me.png", { type: "image/png" }));
    expect((await send("/profile", { method: "POST", body, cookie: person.cookie })).status).toBe(200);
    return (await imageOf(person.id)) ?? "";
  }

  /** Puts a URL on an account as something outside the profile form might have: an identity provider's picture, or an account from before this rule. */
  async function holdPhoto(id: string, url: string) {
    await t.database.db.update(user).set({ image: url }).where(eq(user.id, id));
    await updateUserDocument(t.database.db, t.identity.cipher, id, { profilePicUrl: url });
  }

  const removePhoto = (cookie: string) =>
    send("/profile", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "intent=remove-photo", cookie });

  it("serves an uploaded photo from the bucket under its owner's key, as WebP cached for a year, with an ETag and 304", async () => {
    const person = await signedIn("Kavya Rao");
    const url = await uploadPhoto(person);
    expect(url).toMatch(urlPattern(`avatars/${person.id}`, "webp"));
    const stored = await readObject(url.slice(uploadsPath.length));
    expect(stored?.subarray(8, 12).toString()).toBe("WEBP");

    const response = await send(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const etag = response.headers.get("etag");
    expect(etag).toBe(`"${/([a-f0-9]{32})\.webp$/.exec(url)?.[1]}"`);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(stored);

    const again = await send(url, { headers: { "if-none-match": etag ?? "" } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe("");
  });

  it("gives JPEG and PNG files their own types", async () => {
    const jpg = await storage.put("avatars", Buffer.from([0xff, 0xd8, 0xff]), "jpg");
    const png = await storage.put("avatars", Buffer.from([0x89, 0x50, 0x4e, 0x47]), "png");
    expect((await send(jpg)).headers.get("content-type")).toBe("image/jpeg");
    expect((await send(png)).headers.get("content-type")).toBe("image/png");
  });

  it("answers 404 for unknown keys and for every other object in the bucket", async () => {
    const id = hex();
    await bucketClient.send(new PutObjectCommand({ Bucket: bucket, Key: `private/${id}.webp`, Body: "backup" }));
    await bucketClient.send(new PutObjectCommand({ Bucket: bucket, Key: "avatars/notes.txt", Body: "notes" }));
    for (const url of [`/uploads/avatars/${hex()}.webp`, `/uploads/avatars/someone/${hex()}.webp`, `/uploads/private/${id}.webp`, "/uploads/avatars/notes.txt", "/uploads/", `/uploads/avatars/..%2F..%2Fprivate%2F${id}.webp`]) {
      const response = await send(url);
      expect(response.status, url).toBe(404);
      expect(await response.text(), url).toBe("Not found");
    }
  });

  it("refuses an image given at sign-up, so no account starts out showing someone else's photo", async () => {
    const victim = await signedIn("Victim");
    const victimPhoto = await uploadPhoto(victim);
    for (const image of [victimPhoto, "https://tracker.example/pixel.gif", null]) {
      const email = `storage-${randomBytes(4).toString("hex")}@example.com`;
      const response = await send("/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Mallory", email, password: "a good long password", image }),
      });
      expect(response.status, String(image)).toBe(400);
      expect(await response.json()).toMatchObject({ message: "Your photo can only be changed by uploading one on your profile page." });
      expect(await t.database.db.select().from(user).where(eq(user.email, email))).toEqual([]);
    }
    expect((await send(victimPhoto)).status).toBe(200);
  });

  it("never deletes another person's photo when someone replaces or removes theirs or deletes their account, whatever URL their account holds", async () => {
    const victim = await signedIn("Victim");
    const victimPhoto = await uploadPhoto(victim);
    const mallory = await signedIn("Mallory");

    await holdPhoto(mallory.id, victimPhoto);
    const own = await uploadPhoto(mallory);
    expect(own).toMatch(urlPattern(`avatars/${mallory.id}`, "webp"));
    expect((await send(victimPhoto)).status).toBe(200);

    await holdPhoto(mallory.id, victimPhoto);
    expect((await removePhoto(mallory.cookie)).status).toBe(200);
    expect((await send(victimPhoto)).status).toBe(200);

    await holdPhoto(mallory.id, victimPhoto);
    const deleted = await send("/api/auth/delete-user", { method: "POST", headers: { "content-type": "application/json" }, body: "{}", cookie: mallory.cookie });
    expect(deleted.status).toBe(200);
    expect(await imageOf(mallory.id)).toBeUndefined();
    expect((await send(victimPhoto)).status).toBe(200);
    expect(await imageOf(victim.id)).toBe(victimPhoto);
  });

  it("still serves a photo stored before keys named their owner, and lets only its owner's changes delete it", async () => {
    const victim = await signedIn("Early Member");
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#00aa55" } }).webp().toBuffer();
    const earlier = await storage.put("avatars", png, "webp");
    expect(earlier).toMatch(urlPattern("avatars", "webp"));
    await holdPhoto(victim.id, earlier);
    expect((await send(earlier)).status).toBe(200);

    const mallory = await signedIn("Mallory");
    await holdPhoto(mallory.id, earlier);
    await uploadPhoto(mallory);
    expect((await send(earlier)).status).toBe(200);

    await uploadPhoto(victim);
    expect((await send(earlier)).status).toBe(404);
  });
});

/** The profile form with a small PNG chosen. */
async function photoForm(): Promise<FormData> {
  const body = new FormData();
  body.set("intent", "photo");
  const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#3366ff" } }).png().toBuffer();
  body.set("photo", new File([new Uint8Array(png)], "me.png", { type: "image/png" }));
  return body;
}

describe("profile photos when the bucket stops answering", () => {
  let outage: S3rver;
  let t: TestApp;
  beforeAll(async () => {
    outage = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: await mkdtemp(path.join(tmpdir(), "academy-s3rver-")), configureBuckets: [{ name: bucket }] });
    const { port } = await outage.run();
    const storage = await createStorage({ s3: { ...s3Settings(), endpoint: `http://127.0.0.1:${port}` }, diskRoot: path.join(tmpdir(), "academy-never-written") });
    t = await startTestApp({ storage });
  });
  afterAll(() => t?.close());

  const origin = "http://academy.test";
  const send = (url: string, init: RequestInit & { cookie?: string } = {}) => {
    const headers = new Headers(init.headers);
    headers.set(clientIpHeader, `10.12.${randomBytes(2).join(".")}`);
    headers.set("origin", origin);
    if (init.cookie) headers.set("cookie", init.cookie);
    return t.app.fetch(new Request(`${origin}${url}`, { ...init, headers, redirect: "manual" }));
  };

  it("answers 503 with a sentence, for the photo and for a new upload, and changes nothing", async () => {
    const email = `outage-${randomBytes(4).toString("hex")}@example.com`;
    const signUp = await t.identity.auth.api.signUpEmail({ body: { name: "Outage Olu", email, password: "a good long password" }, asResponse: true });
    const cookie = signUp.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const { user: created } = (await signUp.json()) as { user: { id: string } };
    await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, created.id));
    expect((await send("/profile", { method: "POST", body: await photoForm(), cookie })).status).toBe(200);
    const [{ image } = { image: null }] = await t.database.db.select({ image: user.image }).from(user).where(eq(user.id, created.id));
    expect((await send(image ?? "")).status).toBe(200);

    await outage.close();

    const served = await send(image ?? "", { headers: { accept: "image/avif,image/webp,*/*" } });
    expect(served.status).toBe(503);
    expect(served.headers.get("retry-after")).toBe("60");
    expect(await served.text()).toBe("This file cannot be shown just now: our file storage is not answering. Try again in a few minutes.");

    const uploaded = await send("/profile", { method: "POST", body: await photoForm(), cookie, headers: { accept: "text/html" } });
    expect(uploaded.status).toBe(503);
    expect(await uploaded.text()).toContain("Your photo could not be stored: our file storage is not answering. Nothing was changed; try again in a few minutes.");
    const [after] = await t.database.db.select({ image: user.image }).from(user).where(eq(user.id, created.id));
    expect(after?.image).toBe(image);

    const removal = new FormData();
    removal.set("intent", "remove-photo");
    const removed = await send("/profile", { method: "POST", body: removal, cookie, headers: { accept: "text/html" } });
    expect(removed.status).toBe(503);
    expect(await removed.text()).toContain("Your photo could not be deleted: our file storage is not answering. Nothing was changed; try again in a few minutes.");
    const [kept] = await t.database.db.select({ image: user.image }).from(user).where(eq(user.id, created.id));
    expect(kept?.image).toBe(image);
  });
});
