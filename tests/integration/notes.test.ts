import { createHash, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../server/api/keys.ts";
import { encryptFields, type FieldCipher } from "../../server/crypto/field-encryption.ts";
import { notes } from "../../server/db/schema.ts";
import { TooManyRequests } from "../../server/errors.ts";
import {
  createNote,
  deleteNote,
  describeNoteLesson,
  exportNotes,
  getNote,
  isDeletedNote,
  listLessonNotes,
  listNotes,
  matchesSearch,
  noteLimits,
  pageOfNotes,
  purgeDeletedNotes,
  restoreNote,
  updateNote,
} from "../../server/notes/index.ts";
import { databaseKinds, identitySuite, startTestApp, testCatalog, testCourse, type TestApp } from "./helpers.ts";
import { longestStall } from "../support/longest-stall.ts";

const course = testCourse("demo", "Demo course", [[{ id: "1-1", title: "Getting started", preview: true }, { id: "1-2", title: "The box model" }]]);
const catalog = testCatalog([course]);

const hour = 60 * 60 * 1000;
const encode = (text: string) => Buffer.from(text).toString("base64url");

const words = "closure event loop flexbox grid promise async await render state hook effect memo reducer context selector cascade".split(" ");

/** A note body of exactly the maximum length, of ordinary words. */
function fullBody(seed: number, extra = ""): string {
  const text = Array.from({ length: 4_000 }, (_, i) => words[(seed * 7 + i * 13) % words.length]).join(" ");
  return `${extra} ${text}`.slice(0, noteLimits.body);
}

/** Passes through to the cipher, counting the values it decrypts. */
function counting(cipher: FieldCipher): { cipher: FieldCipher; decrypted: () => number } {
  let count = 0;
  return {
    cipher: { ...cipher, decrypt: (value: string) => (count++, cipher.decrypt(value)) },
    decrypted: () => count,
  };
}

describe.each(databaseKinds)("learner notes on $name", ({ open }) => {
  const suite = identitySuite(open, catalog);

  async function learner(enrolled = false): Promise<string> {
    const { id } = await suite.signUp("Noor");
    if (enrolled) await suite.enrol(id, "demo");
    return id;
  }

  const db = () => suite.db;
  const cipher = () => suite.identity.cipher;
  const exportedNotes = async (userId: string) => {
    const all = [];
    for await (const slice of exportNotes(db(), cipher(), userId)) all.push(...slice);
    return all;
  };
  const rawRow = async (id: string) => (await db().select().from(notes).where(eq(notes.id, id)))[0];

  /**
   * A learner at the cap: `count` notes of the maximum size, as the API makes them (never edited,
   * so each is as new as the day it was written), stored encrypted in one multi-row insert.
   */
  async function largeAccount(count: number = noteLimits.perUser, options: { marked?: string; lesson?: { courseId: string; lessonId: string } } = {}): Promise<string> {
    const userId = await learner(options.lesson !== undefined);
    const start = Date.now() - 30 * 24 * hour;
    const rows = Array.from({ length: count }, (_, i) => {
      const at = new Date(start + i * 60_000);
      const body = fullBody(i, i % 100 === 0 && options.marked ? options.marked : "");
      return encryptFields(cipher(), { userId, title: `Note ${i}`, body, courseId: options.lesson?.courseId ?? null, lessonId: options.lesson?.lessonId ?? null, createdAt: at, updatedAt: at }, ["title", "body"]);
    });
    await db().insert(notes).values(rows);
    return userId;
  }

  it("creates, reads, updates and lists a learner's notes, stored encrypted", async () => {
    const userId = await learner();
    const note = await createNote(db(), cipher(), catalog, userId, { title: "  Flexbox   axes ", body: "Main axis follows **flex-direction**." });
    expect(note).toMatchObject({ title: "Flexbox axes", body: "Main axis follows **flex-direction**.", courseId: null, lessonId: null, deletedAt: null });

    const raw = await rawRow(note.id);
    expect(raw?.title).toMatch(/^v1:/);
    expect(raw?.body).toMatch(/^v1:/);
    expect(raw?.title).not.toContain("Flexbox");
    expect(raw?.body).not.toContain("flex-direction");
    expect(cipher().decrypt(raw?.body as string)).toBe("Main axis follows **flex-direction**.");

    const updated = await updateNote(db(), cipher(), userId, note.id, { title: "Flexbox", body: "Line one\r\nLine two" }, new Date(Date.now() + 1000));
    expect(updated).toMatchObject({ title: "Flexbox", body: "Line one\nLine two" });
    expect(updated.updatedAt.getTime()).toBeGreaterThan(note.updatedAt.getTime());
    expect(await getNote(db(), cipher(), userId, note.id)).toMatchObject({ title: "Flexbox", body: "Line one\nLine two" });
    expect((await rawRow(note.id))?.title).toMatch(/^v1:/);
    expect((await listNotes(db(), cipher(), userId)).notes.map((n) => n.title)).toEqual(["Flexbox"]);
  });

  it("sorts by last update either way and searches title and text after decrypting", async () => {
    const userId = await learner();
    const start = Date.now();
    const a = await createNote(db(), cipher(), catalog, userId, { title: "Grid areas", body: "Name the areas" }, new Date(start));
    const b = await createNote(db(), cipher(), catalog, userId, { title: "Promises", body: "await pauses the async function" }, new Date(start + 1000));
    const c = await createNote(db(), cipher(), catalog, userId, { title: "Specificity", body: "IDs beat classes" }, new Date(start + 2000));
    await updateNote(db(), cipher(), userId, a.id, { title: "Grid areas", body: "Name the areas, then place items" }, new Date(start + 3000));

    expect((await listNotes(db(), cipher(), userId)).notes.map((n) => n.id)).toEqual([a.id, c.id, b.id]);
    expect((await listNotes(db(), cipher(), userId, { sort: "oldest" })).notes.map((n) => n.id)).toEqual([b.id, c.id, a.id]);

    const { notes: all } = await listNotes(db(), cipher(), userId);
    const search = (q: string) => all.filter((n) => matchesSearch(n, q)).map((n) => n.title);
    expect(search("grid")).toEqual(["Grid areas"]);
    expect(search("ASYNC")).toEqual(["Promises"]);
    expect(search("place name")).toEqual(["Grid areas"]);
    expect(search("classes promises")).toEqual([]);
    expect(search("  ")).toHaveLength(3);
  });

  it("lists the first notes with the counts, and searches all of them", async () => {
    const userId = await learner();
    const start = Date.now();
    const titles = ["Grid areas", "Promises", "Specificity", "Grid gaps", "Closures"];
    for (const [i, title] of titles.entries()) await createNote(db(), cipher(), catalog, userId, { title, body: `note ${i}` }, new Date(start + i * 1000));

    const firstTwo = await listNotes(db(), cipher(), userId, { limit: 2 });
    expect(firstTwo.notes.map((n) => n.title)).toEqual(["Closures", "Grid gaps"]);
    expect(firstTwo).toMatchObject({ total: 5, matching: 5 });
    const oldestTwo = await listNotes(db(), cipher(), userId, { sort: "oldest", limit: 2 });
    expect(oldestTwo.notes.map((n) => n.title)).toEqual(["Grid areas", "Promises"]);

    const grid = await listNotes(db(), cipher(), userId, { query: "grid", limit: 1 });
    expect(grid.notes.map((n) => n.title)).toEqual(["Grid gaps"]);
    expect(grid).toMatchObject({ total: 5, matching: 2 });
    expect(await listNotes(db(), cipher(), userId, { query: "nothing like this" })).toEqual({ notes: [], total: 5, matching: 0 });
  });

  it("attaches notes only to real lessons the learner can open", async () => {
    const visitor = await learner();
    const enrolled = await learner(true);
    await expect(createNote(db(), cipher(), catalog, visitor, { title: "", body: "x", lesson: { courseId: "nope", lessonId: "1-1" } })).rejects.toMatchObject({
      status: 404,
      message: "We could not find that course.",
    });
    await expect(createNote(db(), cipher(), catalog, visitor, { title: "", body: "x", lesson: { courseId: "demo", lessonId: "9-9" } })).rejects.toMatchObject({
      status: 404,
      message: "We could not find that lesson.",
    });
    await expect(createNote(db(), cipher(), catalog, visitor, { title: "", body: "x", lesson: { courseId: "demo", lessonId: "1-2" } })).rejects.toMatchObject({
      status: 403,
      message: "Enrol in this course to keep notes on this lesson.",
    });
    await expect(createNote(db(), cipher(), catalog, enrolled, { title: "", body: "  ", lesson: { courseId: "demo", lessonId: "1-2" } })).rejects.toMatchObject({
      status: 400,
      message: "Write something in the note first.",
    });
    expect((await listNotes(db(), cipher(), visitor)).notes).toEqual([]);

    const preview = await createNote(db(), cipher(), catalog, visitor, { title: "", body: "Free lesson", lesson: { courseId: "demo", lessonId: "1-1" } });
    expect(preview).toMatchObject({ title: "Getting started", courseId: "demo", lessonId: "1-1" });
    const first = await createNote(db(), cipher(), catalog, enrolled, { title: "Margins", body: "collapse", lesson: { courseId: "demo", lessonId: "1-2" } });
    const second = await createNote(db(), cipher(), catalog, enrolled, { title: "", body: "padding", lesson: { courseId: "demo", lessonId: "1-2" } }, new Date(Date.now() + 1000));
    await createNote(db(), cipher(), catalog, enrolled, { title: "Elsewhere", body: "not this lesson" });
    expect((await listLessonNotes(db(), cipher(), enrolled, "demo", "1-2")).notes.map((n) => [n.id, n.title])).toEqual([
      [second.id, "The box model"],
      [first.id, "Margins"],
    ]);
    expect(await listLessonNotes(db(), cipher(), visitor, "demo", "1-2")).toEqual({ notes: [], total: 0 });
    expect(describeNoteLesson(catalog, first)).toEqual({ courseId: "demo", courseTitle: "Demo course", lessonId: "1-2", lessonTitle: "The box model" });
    expect(describeNoteLesson(catalog, { courseId: "demo", lessonId: "7-7" })).toBeNull();
    expect(describeNoteLesson(catalog, { courseId: null, lessonId: null })).toBeNull();
  });

  it("refuses notes over the limits with specific messages and changes nothing", async () => {
    const userId = await learner();
    await expect(createNote(db(), cipher(), catalog, userId, { title: "t".repeat(201), body: "" })).rejects.toMatchObject({
      status: 400,
      message: "Keep the title to 200 characters or fewer (it has 201).",
    });
    await expect(createNote(db(), cipher(), catalog, userId, { title: "Long", body: "b".repeat(20_001) })).rejects.toMatchObject({
      status: 400,
      message: "Keep a note to 20,000 characters or fewer (it has 20,001).",
    });
    const note = await createNote(db(), cipher(), catalog, userId, { title: "Fits", body: `${"b\r\n".repeat(10_000)}` });
    expect(note.body).toHaveLength(20_000);
    await expect(updateNote(db(), cipher(), userId, note.id, { title: "Fits", body: "b".repeat(20_001) })).rejects.toMatchObject({ status: 400 });
    expect((await getNote(db(), cipher(), userId, note.id)).body).toHaveLength(20_000);

    const filler = Array.from({ length: noteLimits.perUser - 1 }, (_, i) =>
      encryptFields(cipher(), { userId, title: `Note ${i}`, body: "" }, ["title", "body"]),
    );
    await db().insert(notes).values(filler);
    await expect(createNote(db(), cipher(), catalog, userId, { title: "One too many", body: "" })).rejects.toMatchObject({
      status: 409,
      message: "You have 1,000 notes, the most we keep. Delete notes you no longer need to add new ones.",
    });
    await deleteNote(db(), userId, note.id);
    expect((await createNote(db(), cipher(), catalog, userId, { title: "Room again", body: "" })).title).toBe("Room again");
  });

  it("makes one note of a resubmitted form and reuses a blank note", async () => {
    const userId = await learner();
    const now = new Date();
    const first = await createNote(db(), cipher(), catalog, userId, { title: "Twice", body: "same" }, now);
    expect((await createNote(db(), cipher(), catalog, userId, { title: "Twice", body: "same" }, new Date(now.getTime() + 5000))).id).toBe(first.id);
    expect((await createNote(db(), cipher(), catalog, userId, { title: "Twice", body: "same" }, new Date(now.getTime() + 2 * 60_000))).id).not.toBe(first.id);
    const blank = await createNote(db(), cipher(), catalog, userId, { title: "", body: "" }, now);
    expect((await createNote(db(), cipher(), catalog, userId, { title: "", body: "" }, new Date(now.getTime() + hour))).id).toBe(blank.id);
  });

  it("deletes to a bin, restores, and purges what was deleted more than a day ago", async () => {
    const userId = await learner();
    const keep = await createNote(db(), cipher(), catalog, userId, { title: "Keep", body: "k" });
    const note = await createNote(db(), cipher(), catalog, userId, { title: "Oops", body: "o" });
    const deletedAt = new Date();
    await deleteNote(db(), userId, note.id, deletedAt);
    await deleteNote(db(), userId, note.id, new Date(deletedAt.getTime() + hour));
    expect((await rawRow(note.id))?.deletedAt?.getTime()).toBe(deletedAt.getTime());
    expect((await listNotes(db(), cipher(), userId)).notes.map((n) => n.id)).toEqual([keep.id]);
    await expect(getNote(db(), cipher(), userId, note.id)).rejects.toMatchObject({ status: 404 });
    await expect(updateNote(db(), cipher(), userId, note.id, { title: "x", body: "y" })).rejects.toMatchObject({ status: 404 });
    expect(await isDeletedNote(db(), userId, note.id)).toBe(true);

    await restoreNote(db(), userId, note.id);
    await restoreNote(db(), userId, note.id);
    expect(await isDeletedNote(db(), userId, note.id)).toBe(false);
    expect((await listNotes(db(), cipher(), userId)).notes.map((n) => n.title).toSorted()).toEqual(["Keep", "Oops"]);

    await deleteNote(db(), userId, note.id, deletedAt);
    const exported = await exportedNotes(userId);
    expect(exported.map((n) => [n.title, n.deletedAt !== null])).toEqual([
      ["Keep", false],
      ["Oops", true],
    ]);
    // A day on, it can no longer be restored, before the clean-up job has removed it too.
    const later = (hours: number) => new Date(deletedAt.getTime() + hours * hour);
    expect(await isDeletedNote(db(), userId, note.id, later(23))).toBe(true);
    expect(await isDeletedNote(db(), userId, note.id, later(25))).toBe(false);
    await expect(restoreNote(db(), userId, note.id, later(25))).rejects.toMatchObject({ status: 404 });
    await purgeDeletedNotes(db(), later(23));
    expect(await rawRow(note.id)).toBeDefined();
    await purgeDeletedNotes(db(), later(25));
    expect(await rawRow(note.id)).toBeUndefined();
    expect(await rawRow(keep.id)).toBeDefined();
    await expect(restoreNote(db(), userId, note.id)).rejects.toMatchObject({ status: 404 });
  });

  it("answers not found for another learner's note and changes nothing", async () => {
    const a = await learner(true);
    const b = await learner(true);
    const live = await createNote(db(), cipher(), catalog, a, { title: "Mine", body: "private", lesson: { courseId: "demo", lessonId: "1-2" } });
    const binned = await createNote(db(), cipher(), catalog, a, { title: "Binned", body: "also private" });
    await deleteNote(db(), a, binned.id);
    const before = [await rawRow(live.id), await rawRow(binned.id)];

    for (const id of [live.id, binned.id]) {
      await expect(getNote(db(), cipher(), b, id)).rejects.toMatchObject({ status: 404, message: "We could not find that note." });
      await expect(updateNote(db(), cipher(), b, id, { title: "Hacked", body: "!" })).rejects.toMatchObject({ status: 404 });
      await expect(deleteNote(db(), b, id)).rejects.toMatchObject({ status: 404 });
      await expect(restoreNote(db(), b, id)).rejects.toMatchObject({ status: 404 });
      expect(await isDeletedNote(db(), b, id)).toBe(false);
    }
    expect((await listNotes(db(), cipher(), b)).notes).toEqual([]);
    expect(await listLessonNotes(db(), cipher(), b, "demo", "1-2")).toEqual({ notes: [], total: 0 });
    expect(await exportedNotes(b)).toEqual([]);
    expect([await rawRow(live.id), await rawRow(binned.id)]).toEqual(before);
    await expect(getNote(db(), cipher(), a, "not-a-uuid")).rejects.toMatchObject({ status: 404 });
  });

  it("refuses a note over the cap without decrypting the learner's notes", async () => {
    const userId = await largeAccount();
    const spy = counting(cipher());
    for (const input of [{ title: "One more", body: "text" }, { title: "", body: "" }, { title: "Note 5", body: fullBody(5) }]) {
      await expect(createNote(db(), spy.cipher, catalog, userId, input)).rejects.toMatchObject({
        status: 409,
        message: "You have 1,000 notes, the most we keep. Delete notes you no longer need to add new ones.",
      });
    }
    expect(spy.decrypted()).toBe(0);
  });

  it("finds a resubmitted note by its stored digest, decrypting that note only, also at the cap", async () => {
    const userId = await largeAccount(noteLimits.perUser - 1);
    const now = new Date();
    const first = await createNote(db(), cipher(), catalog, userId, { title: "Last one", body: fullBody(1) }, now);
    const spy = counting(cipher());
    const again = await createNote(db(), spy.cipher, catalog, userId, { title: "Last one", body: fullBody(1) }, new Date(now.getTime() + 5_000));
    expect(again.id).toBe(first.id);
    expect(spy.decrypted()).toBeLessThanOrEqual(2);

    // The digest is keyed and per person: it is not the content's plain hash, and another learner's same note has another.
    const other = await learner();
    const theirs = await createNote(db(), cipher(), catalog, other, { title: "Last one", body: fullBody(1) }, now);
    const [mine, copy] = [await rawRow(first.id), await rawRow(theirs.id)];
    expect(mine?.contentDigest).toMatch(/^[\w-]{43}$/);
    expect(mine?.contentDigest).not.toBe(copy?.contentDigest);
    const plain = createHash("sha256").update(JSON.stringify(["Last one", fullBody(1), null, null])).digest("base64url");
    expect(mine?.contentDigest).not.toBe(plain);
  });

  it("keeps a digest of the note as edited, so a blank note once typed into is not reused", async () => {
    const userId = await learner();
    const now = new Date();
    const blank = await createNote(db(), cipher(), catalog, userId, { title: "", body: "" }, now);
    await updateNote(db(), cipher(), userId, blank.id, { title: "Typed", body: "into" }, new Date(now.getTime() + 1_000));
    await updateNote(db(), cipher(), userId, blank.id, { title: "", body: "" }, new Date(now.getTime() + 2_000));
    expect((await createNote(db(), cipher(), catalog, userId, { title: "", body: "" }, new Date(now.getTime() + hour))).id).not.toBe(blank.id);
    const typed = await createNote(db(), cipher(), catalog, userId, { title: "Typed", body: "into" }, new Date(now.getTime() + hour));
    expect((await createNote(db(), cipher(), catalog, userId, { title: "Typed", body: "into" }, new Date(now.getTime() + hour + 1_000))).id).toBe(typed.id);
  });

  it("counts every note change of a learner and refuses the 1,001st in ten minutes, saying when to try again", async () => {
    const userId = await learner();
    const other = await learner();
    const note = await createNote(db(), cipher(), catalog, userId, { title: "Busy", body: "b" });
    for (let i = 0; i < (noteLimits.writes.max - 2) / 2; i++) {
      await deleteNote(db(), userId, note.id);
      await restoreNote(db(), userId, note.id);
    }
    await updateNote(db(), cipher(), userId, note.id, { title: "Busy", body: "b" });
    const refusals = [
      () => createNote(db(), cipher(), catalog, userId, { title: "Another", body: "a" }),
      () => updateNote(db(), cipher(), userId, note.id, { title: "Busy", body: "changed" }),
      () => deleteNote(db(), userId, note.id),
      () => restoreNote(db(), userId, note.id),
    ];
    for (const refused of refusals) {
      const error = await refused().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TooManyRequests);
      expect(error).toMatchObject({ status: 429, message: expect.stringMatching(/^You have changed your notes 1,000 times in the last 10 minutes, the most we accept\. Try again in (\d+ seconds|(9|10) minutes)\.$/) });
      expect((error as TooManyRequests).retryAfterSeconds).toBeGreaterThan(9 * 60);
      expect((error as TooManyRequests).retryAfterSeconds).toBeLessThanOrEqual(10 * 60);
    }
    expect((await getNote(db(), cipher(), userId, note.id)).body).toBe("b");
    expect((await listNotes(db(), cipher(), userId, { limit: 10 })).total).toBe(1);
    expect((await createNote(db(), cipher(), catalog, other, { title: "Theirs", body: "t" })).title).toBe("Theirs");
  });

  it("searches a learner's 1,000 full notes in slices, never holding the event loop long", async () => {
    const userId = await largeAccount(noteLimits.perUser, { marked: "zeitgeist" });
    await listNotes(db(), cipher(), userId, { limit: 1 });
    const search = await longestStall(() => listNotes(db(), cipher(), userId, { query: "zeitgeist", limit: 5 }));
    expect(search.value).toMatchObject({ total: 1_000, matching: 10 });
    expect(search.value.notes.map((n) => n.title)).toEqual(["Note 900", "Note 800", "Note 700", "Note 600", "Note 500"]);
    expect(search.stallMs).toBeLessThan(search.totalMs / 4);
    const all = await longestStall(() => listNotes(db(), cipher(), userId, { sort: "oldest" }));
    expect(all.value.notes).toHaveLength(1_000);
    expect(all.value.notes[0]?.title).toBe("Note 0");
    expect(all.stallMs).toBeLessThan(all.totalMs / 4);
    // Each read of 1,000 full notes counts by its 27 MB: the fourth in a minute is one too many.
    expect((await listNotes(db(), cipher(), userId, { query: "zeitgeist" })).matching).toBe(10);
    await expect(listNotes(db(), cipher(), userId, { query: "zeitgeist" })).rejects.toBeInstanceOf(TooManyRequests);
  });

  it("counts a learner's searches by what they read: 64 a minute of a small account, still listing without one", async () => {
    const userId = await learner();
    await createNote(db(), cipher(), catalog, userId, { title: "Grid", body: "areas" });
    const { bytes, leastBytes } = noteLimits.searches;
    for (let i = 0; i < bytes / leastBytes; i++) expect((await listNotes(db(), cipher(), userId, { query: "grid" })).matching).toBe(1);
    const error = await listNotes(db(), cipher(), userId, { query: "grid" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TooManyRequests);
    expect(error).toMatchObject({
      status: 429,
      message: expect.stringMatching(/^Searching reads every one of your notes, and you have searched them as much as we can keep up with this minute\. Try again in \d+ seconds?\.$/),
    });
    expect((error as TooManyRequests).retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await listNotes(db(), cipher(), userId, { limit: 50 })).total).toBe(1);
  });

  it("exports a learner's 1,000 full notes in slices, never holding the event loop long", async () => {
    const userId = await largeAccount();
    const exported = await longestStall(async () => {
      const seen: number[] = [];
      for await (const slice of exportNotes(db(), cipher(), userId)) seen.push(slice.length);
      return seen;
    });
    expect(exported.value.reduce((sum, n) => sum + n, 0)).toBe(1_000);
    expect(Math.max(...exported.value)).toBeLessThan(100);
    expect(exported.stallMs).toBeLessThan(exported.totalMs / 4);
  });

  it("shows at most the latest notes of one lesson, however many the learner wrote there", async () => {
    const userId = await largeAccount(30, { lesson: { courseId: "demo", lessonId: "1-2" } });
    const { notes: shown, total } = await listLessonNotes(db(), cipher(), userId, "demo", "1-2");
    expect(total).toBe(30);
    expect(shown).toHaveLength(noteLimits.perLessonShown);
    expect(shown[0]?.title).toBe("Note 29");
  });

  it("refuses a page cursor that is not one of ours with a clear error", async () => {
    const userId = await learner();
    for (let i = 0; i < 3; i++) await createNote(db(), cipher(), catalog, userId, { title: `Page ${i}`, body: "p" }, new Date(Date.now() + i * 1_000));
    const first = await pageOfNotes(db(), cipher(), userId, { limit: 2 });
    expect(first.notes.map((n) => n.title)).toEqual(["Page 2", "Page 1"]);
    const second = await pageOfNotes(db(), cipher(), userId, { limit: 2, cursor: first.nextCursor ?? "" });
    expect(second).toMatchObject({ notes: [{ title: "Page 0" }], nextCursor: null });
    const id = randomUUID();
    for (const cursor of [
      "garbage",
      "!!!",
      encode("2026-01-01T00:00:00.000Z"),
      encode(`2026-01-01T00:00:00.000Z|not-a-uuid`),
      encode(`+275760-09-13T00:00:00.000Z|${id}`),
      encode(`-271821-04-20T00:00:00.000Z|${id}`),
      encode(`2026-13-45T00:00:00.000Z|${id}`),
      encode(`2026-01-01|${id}`),
      encode(`2026-01-01T00:00:00.000Z|${id}|extra`),
    ]) {
      await expect(pageOfNotes(db(), cipher(), userId, { limit: 2, cursor }), cursor).rejects.toMatchObject({
        status: 400,
        message: "That page cursor is not one we gave out. Start again without it, then pass each answer's nextCursor.",
      });
    }
  });
});

describe("the notes API and page under a person's limits", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const call = (method: string, path: string, token: string, body?: unknown) =>
    t.app.fetch(
      new Request(`http://academy.test/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );

  async function person(): Promise<string> {
    const email = `limits-${randomUUID()}@example.com`;
    const { user } = await t.identity.auth.api.signUpEmail({ body: { name: "Isha", email, password: "a good long password" } });
    return user.id;
  }

  it("counts note writes per person across pages and API keys, answering the one over with 429 and Retry-After", async () => {
    const userId = await person();
    const keys = await Promise.all(["One", "Two"].map(async (name) => (await createApiKey(t.database.db, userId, { name, scopes: ["read", "notes:write"], lifetimeDays: 30 }, new Date())).secret));
    const [one, two] = keys as [string, string];
    // As the notes page writes: each change goes through the same domain functions.
    const note = await createNote(t.database.db, t.identity.cipher, t.catalog, userId, { title: "Paged", body: "p" });
    for (let i = 0; i < (noteLimits.writes.max - 4) / 2; i++) {
      await deleteNote(t.database.db, userId, note.id);
      await restoreNote(t.database.db, userId, note.id);
    }
    expect((await call("POST", "/notes", one, { title: "By key one", body: "text" })).status).toBe(201);
    expect((await call("PATCH", `/notes/${note.id}`, two, { title: "By key two", body: "text" })).status).toBe(200);
    expect((await call("POST", "/notes", one, { title: "The thousandth", body: "text" })).status).toBe(201);
    const refused = await call("POST", "/notes", one, { title: "One more", body: "text" });
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(9 * 60);
    expect(wait).toBeLessThanOrEqual(10 * 60);
    expect(await refused.json()).toEqual({
      error: { code: "rate_limited", message: `You have changed your notes 1,000 times in the last 10 minutes, the most we accept. Try again in ${Math.ceil(wait / 60)} minutes.` },
    });
    // Reading is not writing.
    expect((await call("GET", "/notes?limit=1", two)).status).toBe(200);
  });

  it("answers a cursor that is not one of ours with 400", async () => {
    const userId = await person();
    const { secret } = await createApiKey(t.database.db, userId, { name: "Reader", scopes: ["read"], lifetimeDays: 30 }, new Date());
    for (const cursor of ["garbage", encode(`+275760-09-13T00:00:00.000Z|${randomUUID()}`)]) {
      const answer = await call("GET", `/notes?cursor=${cursor}`, secret);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { code: "invalid_input", message: "That page cursor is not one we gave out. Start again without it, then pass each answer's nextCursor." } });
    }
  });
});
