import { setImmediate as nextTurn } from "node:timers/promises";
import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { consumeThrottle } from "../auth/throttle.ts";
import type { Catalog } from "../catalog/index.ts";
import { decryptFields, encryptFields, type FieldCipher } from "../crypto/field-encryption.ts";
import type { Db } from "../db/client.ts";
import { preparedStatement } from "../db/prepared.ts";
import { notes } from "../db/schema.ts";
import { BadCursor, Conflict, NotFound, refuseTooMany, ValidationError } from "../errors.ts";
import { accessibleLesson } from "./attachment.ts";
import { inBulkLane } from "./bulk-lane.ts";
import { noteLength } from "../../common/limits.ts";
import { noteContent } from "../../common/notes-forms.ts";

export const noteLimits = {
  ...noteLength,
  perUser: 1_000,
  /** Autosave writes at most once a second, after a pause in typing: ten minutes typing flat out make under 600. */
  writes: { windowSeconds: 10 * 60, max: 1_000 },
  /**
   * A search (or the whole list) reads every note, so searches count by what they read: 96 MiB of
   * stored text a minute, each counting at least 1.5 MiB. That is 64 searches a minute for most
   * learners, 35 with a thousand notes of a page each, and 3 with a thousand full ones (≈300 ms of work each).
   */
  searches: { windowSeconds: 60, bytes: 96 * 1024 * 1024, leastBytes: 1.5 * 1024 * 1024 },
  /** A lesson page shows (and renders) this many of the lesson's notes, newest first; Notes has them all. */
  perLessonShown: 10,
} as const;

/** Notes read at once by a search or an export: a quarter of a megabyte of stored text, a few milliseconds' work. */
const sliceSize = { notes: 100, bytes: 256 * 1024 } as const;

/** Throttles count searches in units of this many bytes read, so a count stays far from the column's limit. */
const searchUnitBytes = 64 * 1024;

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

/** Counts a note change against the learner's limit, whatever credential it came with (a session, any of their API keys). */
async function throttleWrite(db: Db, userId: string): Promise<void> {
  const limit = await consumeThrottle(db, `notes-write:${userId}`, noteLimits.writes);
  if (!limit.allowed) refuseTooMany(`You have changed your notes ${noteLimits.writes.max.toLocaleString("en-IN")} times in the last ${noteLimits.writes.windowSeconds / 60} minutes, the most we accept.`, limit.retryAfterSeconds);
}

/** Counts a read of every note (a search or the whole list) against the learner's limit, by the bytes it reads. */
async function throttleSearch(db: Db, userId: string, bytes: number): Promise<void> {
  const { windowSeconds, bytes: budget, leastBytes } = noteLimits.searches;
  const cost = Math.ceil(Math.max(bytes, leastBytes) / searchUnitBytes);
  const limit = await consumeThrottle(db, `notes-search:${userId}`, { windowSeconds, max: budget / searchUnitBytes }, cost);
  if (!limit.allowed) refuseTooMany("Searching reads every one of your notes, and you have searched them as much as we can keep up with this minute.", limit.retryAfterSeconds);
}

/** The keyed digest of a note as it stands: the learner's, so two people's equal notes look unrelated. */
function contentDigest(cipher: FieldCipher, userId: string, note: { title: string; body: string; courseId: string | null; lessonId: string | null }): string {
  return cipher.digest(userId, note.title, note.body, note.courseId, note.lessonId);
}

function decrypt(cipher: FieldCipher, row: typeof notes.$inferSelect): Note {
  const { id, title, body, courseId, lessonId, createdAt, updatedAt, deletedAt } = decryptFields(cipher, row, encrypted);
  return { id, title, body, courseId, lessonId, createdAt, updatedAt, deletedAt };
}

/** Title and body as stored: line endings made uniform (forms send CRLF), limits checked with their own messages. */
function cleanContent(input: { title: string; body: string }): { title: string; body: string } {
  const parsed = noteContent.safeParse(input);
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]?.message ?? "Check the note's title and text.");
  return parsed.data;
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
 * Notes deleted more than a day ago are removed for good, by the hourly clean-up job. They can no
 * longer be restored from the moment the day is up, whether or not the job has run yet.
 */
export async function purgeDeletedNotes(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - purgeAfterMs);
  const purged = await db
    .delete(notes)
    .where(and(isNotNull(notes.deletedAt), lt(notes.deletedAt, before)))
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
 * The learner's notes with these ids, decrypted, in that order, a slice at a time (at most `sliceSize`
 * of stored text), each slice passed through `shape`: between slices other requests run, and only the
 * slice being read is in memory. A read of a whole account runs its slices in the process's bulk
 * lane; a page of notes takes its turns like any request.
 */
async function* decryptInSlices<T>(
  db: Db,
  cipher: FieldCipher,
  userId: string,
  listed: { id: string; bytes: number }[],
  shape: (notes: Note[]) => T,
  pace: "bulk" | "page",
): AsyncGenerator<T> {
  for (let start = 0; start < listed.length; ) {
    let end = start;
    let bytes = 0;
    while (end < listed.length && end - start < sliceSize.notes && (end === start || bytes + (listed[end]?.bytes ?? 0) <= sliceSize.bytes)) bytes += listed[end++]?.bytes ?? 0;
    const ids = listed.slice(start, end).map((note) => note.id);
    const read = async () => {
      const rows = new Map((await db.select().from(notes).where(and(eq(notes.userId, userId), inArray(notes.id, ids)))).map((row) => [row.id, row]));
      // A note deleted for good since the list was read is left out.
      return shape(
        ids.flatMap((id) => {
          const row = rows.get(id);
          return row ? [decrypt(cipher, row)] : [];
        }),
      );
    };
    if (pace === "bulk") {
      yield await inBulkLane(read);
    } else {
      yield await read();
      await nextTurn();
    }
    start = end;
  }
}

/** Every note of a page, read a slice at a time (see decryptInSlices). */
async function readPage(db: Db, cipher: FieldCipher, userId: string, listed: { id: string; bytes: number }[]): Promise<Note[]> {
  const page: Note[] = [];
  for await (const read of decryptInSlices(db, cipher, userId, listed, (found) => found, "page")) page.push(...read);
  return page;
}

const storedBytes = sql<number>`(octet_length(${notes.title}) + octet_length(${notes.body}))::int`;

/** The learner's notes that `where` selects, in this order, with the size of each as stored: what decryptInSlices reads. */
function listIds(db: Db, userId: string, where: SQL | undefined, order: SQL[]) {
  return db
    .select({ id: notes.id, bytes: storedBytes })
    .from(notes)
    .where(and(eq(notes.userId, userId), where))
    .orderBy(...order);
}

const newestFirst = [desc(notes.updatedAt), desc(notes.id)];
const oldestFirst = [asc(notes.updatedAt), asc(notes.id)];

/** listIds of the live notes in `order`, prepared: every view of the notes page asks it. */
const liveNoteIdsIn = (order: SQL[], name: string) =>
  preparedStatement((db) =>
    db.select({ id: notes.id, bytes: storedBytes }).from(notes).where(and(eq(notes.userId, sql.placeholder("userId")), isNull(notes.deletedAt))).orderBy(...order).prepare(name),
  );
const liveNoteIds = { newest: liveNoteIdsIn(newestFirst, "live_note_ids_newest"), oldest: liveNoteIdsIn(oldestFirst, "live_note_ids_oldest") };

/**
 * The first `limit` live notes in `order`, whole, each with how many live notes there are: the notes
 * page's list in one prepared statement. At most a page of notes, each within its length limits.
 */
const firstLiveNotesIn = (order: SQL[], name: string) =>
  preparedStatement((db) =>
    db
      .select({ note: notes, total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(notes)
      .where(and(eq(notes.userId, sql.placeholder("userId")), isNull(notes.deletedAt)))
      .orderBy(...order)
      .limit(sql.placeholder("limit"))
      .prepare(name),
  );
const firstLiveNotes = { newest: firstLiveNotesIn(newestFirst, "first_live_notes_newest"), oldest: firstLiveNotesIn(oldestFirst, "first_live_notes_oldest") };

/**
 * The learner's live notes, last updated first (or oldest first), matching `query` when given.
 * Without a search only the notes returned are read and decrypted, with the count, in one statement.
 * A search, or the whole list, must decrypt them all (the text is encrypted): it counts against the
 * learner's searches a minute, and reads in slices, keeping only the notes returned.
 */
export async function listNotes(
  db: Db,
  cipher: FieldCipher,
  userId: string,
  options: { sort?: NoteSort; query?: string; limit?: number } = {},
): Promise<NoteList> {
  const query = options.query?.trim() ?? "";
  const sort = options.sort === "oldest" ? "oldest" : "newest";
  if (!query && options.limit !== undefined) {
    const rows = await firstLiveNotes[sort](db).execute({ userId, limit: Math.max(1, options.limit) });
    const total = rows[0]?.total ?? 0;
    return { notes: rows.slice(0, options.limit).map((row) => decrypt(cipher, row.note)), total, matching: total };
  }
  const listed = await liveNoteIds[sort](db).execute({ userId });
  await throttleSearch(db, userId, listed.reduce((sum, note) => sum + note.bytes, 0));
  const kept: Note[] = [];
  let matching = 0;
  const matches = (found: Note[]) => (query ? found.filter((note) => matchesSearch(note, query)) : found);
  for await (const found of decryptInSlices(db, cipher, userId, listed, matches, "bulk")) {
    matching += found.length;
    kept.push(...found.slice(0, options.limit === undefined ? undefined : Math.max(0, options.limit - kept.length)));
  }
  return { notes: kept, total: listed.length, matching };
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

const cursorPattern = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([0-9a-f-]{36})$/i;

/** The note a cursor of ours names (its last update and id); anything else is refused, not ignored. */
function readCursor(cursor: string): { at: Date; id: string } {
  const [, at = "", id = ""] = cursorPattern.exec(Buffer.from(cursor, "base64url").toString("utf8")) ?? [];
  const time = new Date(at);
  // Our cursors hold a note's time exactly as toISOString wrote it, and notes are never older than 1970.
  if (!uuidPattern.test(id) || Number.isNaN(time.getTime()) || time.getTime() < 0 || time.toISOString() !== at) {
    throw new BadCursor();
  }
  return { at: time, id };
}

/**
 * One page of the learner's live notes, last updated first, after the note a cursor names (an
 * opaque string from the previous page): each page is one indexed read, and only its notes are
 * decrypted. A cursor that is not one of ours is a ValidationError. (Deleted notes are never in a
 * page.)
 */
export async function pageOfNotes(
  db: Db,
  cipher: FieldCipher,
  userId: string,
  options: { cursor?: string | undefined; limit: number },
): Promise<{ notes: Note[]; nextCursor: string | null }> {
  const after = options.cursor === undefined ? null : readCursor(options.cursor);
  // Ordered by the time as the cursor can carry it (milliseconds), so no note falls between two pages.
  const updated = sql<Date>`date_trunc('milliseconds', ${notes.updatedAt})`;
  const listed = await listIds(
    db,
    userId,
    and(isNull(notes.deletedAt), after ? sql`(${updated}, ${notes.id}) < (${after.at.toISOString()}::timestamptz, ${after.id}::uuid)` : undefined),
    [desc(updated), desc(notes.id)],
  ).limit(options.limit + 1);
  const page = await readPage(db, cipher, userId, listed.slice(0, options.limit));
  const last = page.at(-1);
  const nextCursor = listed.length > options.limit && last ? Buffer.from(`${last.updatedAt.toISOString()}|${last.id}`).toString("base64url") : null;
  return { notes: page, nextCursor };
}

/** Asked by every lesson a learner opens. */
const notesOfLesson = preparedStatement((db) =>
  db
    .select({ note: notes, total: sql<number>`(count(*) over ())::int` })
    .from(notes)
    .where(
      and(
        eq(notes.userId, sql.placeholder("userId")),
        eq(notes.courseId, sql.placeholder("courseId")),
        eq(notes.lessonId, sql.placeholder("lessonId")),
        isNull(notes.deletedAt),
      ),
    )
    .orderBy(...newestFirst)
    .limit(noteLimits.perLessonShown)
    .prepare("notes_of_lesson"),
);

/** The learner's latest notes on one lesson (at most noteLimits.perLessonShown), last updated first, and how many there are. */
export async function listLessonNotes(db: Db, cipher: FieldCipher, userId: string, courseId: string, lessonId: string): Promise<{ notes: Note[]; total: number }> {
  const rows = await notesOfLesson(db).execute({ userId, courseId, lessonId });
  return { notes: rows.map((row) => decrypt(cipher, row.note)), total: rows[0]?.total ?? 0 };
}

/** One live note of this learner's. */
export async function getNote(db: Db, cipher: FieldCipher, userId: string, noteId: string): Promise<Note> {
  const row = await ownRow(db, userId, noteId);
  if (row.deletedAt) throw notFound();
  return decrypt(cipher, row);
}

/** Whether this learner has this note in the bin, still restorable. */
export async function isDeletedNote(db: Db, userId: string, noteId: string, now = new Date()): Promise<boolean> {
  if (!uuidPattern.test(noteId)) return false;
  const [row] = await db
    .select({ id: notes.id })
    .from(notes)
    .where(and(eq(notes.id, noteId), eq(notes.userId, userId), gt(notes.deletedAt, new Date(now.getTime() - purgeAfterMs))));
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
 * the last minute, or a second blank note, returns the existing one instead of a duplicate (also at
 * the cap, so a resubmitted form is answered as the first was).
 */
export async function createNote(db: Db, cipher: FieldCipher, catalog: Catalog, userId: string, input: NewNote, now = new Date()): Promise<Note> {
  await throttleWrite(db, userId);
  const lesson = input.lesson ? await accessibleLesson(db, catalog, userId, input.lesson.courseId, input.lesson.lessonId) : null;
  const content = cleanContent(input);
  if (lesson && !content.title) content.title = lesson.title.slice(0, noteLimits.title);
  if (lesson && !content.body.trim()) throw new ValidationError("Write something in the note first.");
  const courseId = input.lesson?.courseId ?? null;
  const lessonId = input.lesson?.lessonId ?? null;
  const digest = contentDigest(cipher, userId, { ...content, courseId, lessonId });
  const blank = !content.title && !content.body.trim();

  const liveNotes = and(eq(notes.userId, userId), isNull(notes.deletedAt));
  const recent = gt(notes.createdAt, new Date(now.getTime() - duplicateWindowMs));
  // The note this submission repeats has its digest: one made within the window, or, for a blank
  // one, a blank "New note" never typed into. Found by the index; only that note is decrypted.
  // Notes written before digests existed have none and are never taken for a repeat: a form
  // resubmitted across the upgrade makes one more note, and an old blank note is not reused.
  // One round trip for both: the repeat (if any) and how many live notes there are.
  const repeat = db
    .select({ id: notes.id })
    .from(notes)
    .where(and(liveNotes, eq(notes.contentDigest, digest), blank ? or(recent, and(isNull(notes.courseId), eq(notes.updatedAt, notes.createdAt))) : recent))
    .orderBy(desc(notes.createdAt))
    .limit(1);
  const [{ live, repeatId } = { live: 0, repeatId: null }] = await db
    .select({ live: count(), repeatId: sql<string | null>`(${repeat})` })
    .from(notes)
    .where(liveNotes);
  const candidate = repeatId ? await ownRow(db, userId, repeatId) : undefined;
  const same = candidate && decrypt(cipher, candidate);
  if (same && same.title === content.title && same.body === content.body) return same;
  if (live >= noteLimits.perUser) {
    throw new Conflict(`You have ${noteLimits.perUser.toLocaleString("en-IN")} notes, the most we keep. Delete notes you no longer need to add new ones.`);
  }
  const [row] = await db
    .insert(notes)
    .values({ ...encryptFields(cipher, { userId, ...content, courseId, lessonId, createdAt: now, updatedAt: now }, encrypted), contentDigest: digest })
    .returning();
  return decrypt(cipher, row as typeof notes.$inferSelect);
}

/** Changes a live note's title, its body or both; a field not given keeps what it says. */
export async function updateNote(
  db: Db,
  cipher: FieldCipher,
  userId: string,
  noteId: string,
  input: { title?: string | undefined; body?: string | undefined },
  now = new Date(),
): Promise<Note> {
  await throttleWrite(db, userId);
  const row = await ownRow(db, userId, noteId);
  if (row.deletedAt) throw notFound();
  const current = decrypt(cipher, row);
  const content = cleanContent({ title: input.title ?? current.title, body: input.body ?? current.body });
  const [updated] = await db
    .update(notes)
    .set({ ...encryptFields(cipher, { ...content, updatedAt: now }, encrypted), contentDigest: contentDigest(cipher, userId, { ...content, courseId: row.courseId, lessonId: row.lessonId }) })
    .where(and(eq(notes.id, row.id), eq(notes.userId, userId)))
    .returning();
  return decrypt(cipher, updated as typeof notes.$inferSelect);
}

/** Moves a note to the bin, restorable for a day. Deleting it again changes nothing. */
export async function deleteNote(db: Db, userId: string, noteId: string, now = new Date()): Promise<void> {
  await throttleWrite(db, userId);
  const row = await ownRow(db, userId, noteId);
  if (row.deletedAt) return;
  await db
    .update(notes)
    .set({ deletedAt: now })
    .where(and(eq(notes.id, row.id), eq(notes.userId, userId)));
}

/**
 * Brings a deleted note back; restoring a live note changes nothing. A note deleted more than a day
 * ago is gone, as if purged already (not found).
 */
export async function restoreNote(db: Db, userId: string, noteId: string, now = new Date()): Promise<void> {
  await throttleWrite(db, userId);
  const row = await ownRow(db, userId, noteId);
  if (!row.deletedAt) return;
  if (row.deletedAt.getTime() <= now.getTime() - purgeAfterMs) throw notFound();
  await db
    .update(notes)
    .set({ deletedAt: null })
    .where(and(eq(notes.id, row.id), eq(notes.userId, userId)));
}

/**
 * Every note we hold for the learner, the deleted ones not yet purged too, oldest first, decrypted
 * a slice at a time in the bulk lane and passed through `shape` there (for "Download my data", which
 * streams each slice out as its JSON text).
 */
export function exportNotes(db: Db, cipher: FieldCipher, userId: string): AsyncGenerator<Note[]>;
export function exportNotes<T>(db: Db, cipher: FieldCipher, userId: string, shape: (notes: Note[]) => T): AsyncGenerator<T>;
export async function* exportNotes(db: Db, cipher: FieldCipher, userId: string, shape: (notes: Note[]) => unknown = (found) => found): AsyncGenerator<unknown> {
  yield* decryptInSlices(db, cipher, userId, await listIds(db, userId, undefined, [asc(notes.createdAt), asc(notes.id)]), shape, "bulk");
}
