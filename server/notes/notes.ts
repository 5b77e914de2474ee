import { and, asc, count, desc, eq, gt, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Catalog } from "../catalog/index.ts";
import { decryptFields, encryptFields, type FieldCipher } from "../crypto/field-encryption.ts";
import type { Db } from "../db/client.ts";
import { notes } from "../db/schema.ts";
import { Conflict, NotFound, ValidationError } from "../errors.ts";
import { accessibleLesson } from "./attachment.ts";

export const noteLimits = { title: 200, body: 20_000, perUser: 1_000 } as const;

/** How long a deleted note can still be restored before it is removed for good. */
const purgeAfterMs = 24 * 60 * 60 * 1000;

/** Two identical submissions this close together are one note (a double click, a resubmitted form). */
const duplicateWindowMs = 60 * 1000;

export interface Note {
  id: string;
  title: string;
  body: string;
  courseId: string | null;
  lessonId: string | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export type NoteSort = "newest" | "oldest";

const encrypted = ["title", "body"] as const;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notFound = () => new NotFound("We could not find that note.");

function decrypt(cipher: FieldCipher, row: typeof notes.$inferSelect): Note {
  const { id, title, body, courseId, lessonId, createdAt, updatedAt, deletedAt } = decryptFields(cipher, row, encrypted);
  return { id, title, body, courseId, lessonId, createdAt, updatedAt, deletedAt };
}

/** Title and body as stored: line endings made uniform (forms send CRLF), limits checked with their own messages. */
function cleanContent(input: { title: string; body: string }): { title: string; body: string } {
  const title = input.title.replace(/\s+/g, " ").trim();
  const body = input.body.replace(/\r\n?/g, "\n");
  if (title.length > noteLimits.title) throw new ValidationError(`Keep the title to ${noteLimits.title} characters or fewer (it has ${title.length}).`);
  if (body.length > noteLimits.body) {
    throw new ValidationError(`Keep a note to ${noteLimits.body.toLocaleString("en-IN")} characters or fewer (it has ${body.length.toLocaleString("en-IN")}).`);
  }
  return { title, body };
}

/** One row of this user's, live or deleted; another user's id, or one that is not an id at all, is not found. */
async function ownRow(db: Db, userId: string, noteId: string) {
  if (!uuidPattern.test(noteId)) throw notFound();
  const [row] = await db
    .select()
    .from(notes)
    .where(and(eq(notes.id, noteId), eq(notes.userId, userId)));
  if (!row) throw notFound();
  return row;
}

/**
 * Notes deleted more than a day ago are removed for good; they can no longer be restored. The
 * clean-up job purges everyone's; listing purges the learner's own first, so a list never waits on it.
 */
export async function purgeDeletedNotes(db: Db, now: Date, userId?: string): Promise<number> {
  const purged = await db
    .delete(notes)
    .where(and(userId === undefined ? undefined : eq(notes.userId, userId), isNotNull(notes.deletedAt), lt(notes.deletedAt, new Date(now.getTime() - purgeAfterMs))))
    .returning({ id: notes.id });
  return purged.length;
}

export interface NoteList {
  /** The matching notes, decrypted, up to the limit asked for. */
  notes: Note[];
  /** The learner's live notes. */
  total: number;
  /** Of those, the ones the search matches (all of them without a search). */
  matching: number;
}

/**
 * The learner's notes, last updated first (or oldest first), matching `query` when given;
 * purges long-deleted ones first. Without a search only the notes returned are read and
 * decrypted; a search must decrypt them all, the text being encrypted.
 */
export async function listNotes(
  db: Db,
  cipher: FieldCipher,
  userId: string,
  options: { sort?: NoteSort; now?: Date; query?: string; limit?: number } = {},
): Promise<NoteList> {
  await purgeDeletedNotes(db, options.now ?? new Date(), userId);
  const order = options.sort === "oldest" ? [asc(notes.updatedAt), asc(notes.id)] : [desc(notes.updatedAt), desc(notes.id)];
  const live = and(eq(notes.userId, userId), isNull(notes.deletedAt));
  const limited = <T>(items: T[]) => (options.limit === undefined ? items : items.slice(0, options.limit));
  const query = options.query?.trim() ?? "";
  if (query) {
    const all = (await db.select().from(notes).where(live).orderBy(...order)).map((row) => decrypt(cipher, row));
    const matching = all.filter((note) => matchesSearch(note, query));
    return { notes: limited(matching), total: all.length, matching: matching.length };
  }
  const selected = db
    .select({ note: notes, total: sql<number>`(count(*) over ())::int` })
    .from(notes)
    .where(live)
    .orderBy(...order)
    .$dynamic();
  const rows = await (options.limit === undefined ? selected : selected.limit(options.limit));
  const total = rows[0]?.total ?? 0;
  return { notes: rows.map((row) => decrypt(cipher, row.note)), total, matching: total };
}

/** Every word of the query appears in the title or the body, ignoring case. The text is encrypted, so this runs after decrypting. */
export function matchesSearch(note: Pick<Note, "title" | "body">, query: string): boolean {
  const haystack = `${note.title}\n${note.body}`.toLocaleLowerCase();
  return query
    .toLocaleLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/**
 * One page of the learner's live notes, last updated first, after the note a cursor names (an
 * opaque string from the previous page): each page is one indexed read, and only its notes are
 * decrypted. A cursor that is not one of ours starts from the beginning. (Long-deleted notes are
 * purged when the notes page lists them; they are never in a page here.)
 */
export async function pageOfNotes(
  db: Db,
  cipher: FieldCipher,
  userId: string,
  options: { cursor?: string | undefined; limit: number },
): Promise<{ notes: Note[]; nextCursor: string | null }> {
  const [at, id] = options.cursor ? Buffer.from(options.cursor, "base64url").toString("utf8").split("|") : [];
  const after = at && id && uuidPattern.test(id) && !Number.isNaN(Date.parse(at)) ? { at: new Date(at), id } : null;
  // Ordered by the time as the cursor can carry it (milliseconds), so no note falls between two pages.
  const updated = sql<Date>`date_trunc('milliseconds', ${notes.updatedAt})`;
  const rows = await db
    .select()
    .from(notes)
    .where(
      and(
        eq(notes.userId, userId),
        isNull(notes.deletedAt),
        after ? sql`(${updated}, ${notes.id}) < (${after.at.toISOString()}::timestamptz, ${after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(updated), desc(notes.id))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > options.limit && last ? Buffer.from(`${last.updatedAt.toISOString()}|${last.id}`).toString("base64url") : null;
  return { notes: page.map((row) => decrypt(cipher, row)), nextCursor };
}

/** The learner's notes on one lesson, last updated first. */
export async function listLessonNotes(db: Db, cipher: FieldCipher, userId: string, courseId: string, lessonId: string): Promise<Note[]> {
  const rows = await db
    .select()
    .from(notes)
    .where(and(eq(notes.userId, userId), eq(notes.courseId, courseId), eq(notes.lessonId, lessonId), isNull(notes.deletedAt)))
    .orderBy(desc(notes.updatedAt), desc(notes.id));
  return rows.map((row) => decrypt(cipher, row));
}

/** One live note of this learner's. */
export async function getNote(db: Db, cipher: FieldCipher, userId: string, noteId: string): Promise<Note> {
  const row = await ownRow(db, userId, noteId);
  if (row.deletedAt) throw notFound();
  return decrypt(cipher, row);
}

/** Whether this learner has this note in the bin, still restorable. */
export async function isDeletedNote(db: Db, userId: string, noteId: string): Promise<boolean> {
  if (!uuidPattern.test(noteId)) return false;
  const [row] = await db
    .select({ id: notes.id })
    .from(notes)
    .where(and(eq(notes.id, noteId), eq(notes.userId, userId), isNotNull(notes.deletedAt)));
  return row !== undefined;
}

export interface NewNote {
  title: string;
  body: string;
  /** Attach the note to a lesson the learner can open; both or neither. */
  lesson?: { courseId: string; lessonId: string };
}

/**
 * Creates a note. A lesson note with no title takes the lesson's. A note identical to one made in
 * the last minute, or a second blank note, returns the existing one instead of a duplicate.
 */
export async function createNote(db: Db, cipher: FieldCipher, catalog: Catalog, userId: string, input: NewNote, now = new Date()): Promise<Note> {
  const lesson = input.lesson ? await accessibleLesson(db, catalog, userId, input.lesson.courseId, input.lesson.lessonId) : null;
  const content = cleanContent(input);
  if (lesson && !content.title) content.title = lesson.title.slice(0, noteLimits.title);
  if (lesson && !content.body.trim()) throw new ValidationError("Write something in the note first.");
  const courseId = input.lesson?.courseId ?? null;
  const lessonId = input.lesson?.lessonId ?? null;

  const liveNotes = and(eq(notes.userId, userId), isNull(notes.deletedAt));
  // Only two kinds of note can be the one this submission repeats, and SQL can tell them apart
  // without decrypting: one created within the window, or one never edited and on no lesson (a
  // blank "New note" stays so until it is typed into). Only those are decrypted and compared.
  const candidates = await db
    .select()
    .from(notes)
    .where(
      and(
        liveNotes,
        or(gt(notes.createdAt, new Date(now.getTime() - duplicateWindowMs)), and(isNull(notes.courseId), eq(notes.updatedAt, notes.createdAt))),
      ),
    )
    .orderBy(desc(notes.createdAt));
  const blank = !content.title && !content.body.trim();
  const same = candidates
    .map((row) => decrypt(cipher, row))
    .find(
      (note) =>
        note.title === content.title &&
        note.body === content.body &&
        note.courseId === courseId &&
        note.lessonId === lessonId &&
        (blank || now.getTime() - note.createdAt.getTime() < duplicateWindowMs),
    );
  if (same) return same;
  const [{ live } = { live: 0 }] = await db.select({ live: count() }).from(notes).where(liveNotes);
  if (live >= noteLimits.perUser) {
    throw new Conflict(`You have ${noteLimits.perUser.toLocaleString("en-IN")} notes, the most we keep. Delete notes you no longer need to add new ones.`);
  }
  const [row] = await db
    .insert(notes)
    .values(encryptFields(cipher, { userId, ...content, courseId, lessonId, createdAt: now, updatedAt: now }, encrypted))
    .returning();
  return decrypt(cipher, row as typeof notes.$inferSelect);
}

/** Replaces a live note's title and body. */
export async function updateNote(
  db: Db,
  cipher: FieldCipher,
  userId: string,
  noteId: string,
  input: { title: string; body: string },
  now = new Date(),
): Promise<Note> {
  const row = await ownRow(db, userId, noteId);
  if (row.deletedAt) throw notFound();
  const content = cleanContent(input);
  const [updated] = await db
    .update(notes)
    .set(encryptFields(cipher, { ...content, updatedAt: now }, encrypted))
    .where(and(eq(notes.id, row.id), eq(notes.userId, userId)))
    .returning();
  return decrypt(cipher, updated as typeof notes.$inferSelect);
}

/** Moves a note to the bin, restorable for a day. Deleting it again changes nothing. */
export async function deleteNote(db: Db, userId: string, noteId: string, now = new Date()): Promise<void> {
  const row = await ownRow(db, userId, noteId);
  if (row.deletedAt) return;
  await db
    .update(notes)
    .set({ deletedAt: now })
    .where(and(eq(notes.id, row.id), eq(notes.userId, userId)));
}

/** Brings a deleted note back; restoring a live note changes nothing. A purged note is gone. */
export async function restoreNote(db: Db, userId: string, noteId: string): Promise<void> {
  const row = await ownRow(db, userId, noteId);
  if (!row.deletedAt) return;
  await db
    .update(notes)
    .set({ deletedAt: null })
    .where(and(eq(notes.id, row.id), eq(notes.userId, userId)));
}

/** Every note we hold for the learner, the deleted ones not yet purged too, decrypted: for "Download my data". */
export async function exportNotes(db: Db, cipher: FieldCipher, userId: string): Promise<Note[]> {
  const rows = await db.select().from(notes).where(eq(notes.userId, userId)).orderBy(asc(notes.createdAt));
  return rows.map((row) => decrypt(cipher, row));
}
