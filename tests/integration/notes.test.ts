import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { encryptFields } from "../../server/crypto/field-encryption.ts";
import { notes } from "../../server/db/schema.ts";
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
  restoreNote,
  updateNote,
} from "../../server/notes/index.ts";
import { databaseKinds, identitySuite, testCatalog, testCourse } from "./helpers.ts";

const course = testCourse("demo", "Demo course", [[{ id: "1-1", title: "Getting started", preview: true }, { id: "1-2", title: "The box model" }]]);
const catalog = testCatalog([course]);

const hour = 60 * 60 * 1000;

describe.each(databaseKinds)("learner notes on $name", ({ open }) => {
  const suite = identitySuite(open, catalog);

  async function learner(enrolled = false): Promise<string> {
    const { id } = await suite.signUp("Noor");
    if (enrolled) await suite.enrol(id, "demo");
    return id;
  }

  const db = () => suite.db;
  const cipher = () => suite.identity.cipher;
  const rawRow = async (id: string) => (await db().select().from(notes).where(eq(notes.id, id)))[0];

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
    expect((await listLessonNotes(db(), cipher(), enrolled, "demo", "1-2")).map((n) => [n.id, n.title])).toEqual([
      [second.id, "The box model"],
      [first.id, "Margins"],
    ]);
    expect(await listLessonNotes(db(), cipher(), visitor, "demo", "1-2")).toEqual([]);
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
    const exported = await exportNotes(db(), cipher(), userId);
    expect(exported.map((n) => [n.title, n.deletedAt !== null])).toEqual([
      ["Keep", false],
      ["Oops", true],
    ]);
    await listNotes(db(), cipher(), userId, { now: new Date(deletedAt.getTime() + 23 * hour) });
    expect(await rawRow(note.id)).toBeDefined();
    await listNotes(db(), cipher(), userId, { now: new Date(deletedAt.getTime() + 25 * hour) });
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
    expect(await listLessonNotes(db(), cipher(), b, "demo", "1-2")).toEqual([]);
    expect(await exportNotes(db(), cipher(), b)).toEqual([]);
    expect([await rawRow(live.id), await rawRow(binned.id)]).toEqual(before);
    await expect(getNote(db(), cipher(), a, "not-a-uuid")).rejects.toMatchObject({ status: 404 });
  });
});
