// Notes at the per-learner cap: what /notes costs the server when every title and body must be
// decrypted (they are stored encrypted, so listing and searching cannot happen in SQL).
// `npx node bench/notes.ts`, or `BENCH_ONLY=notes npm run bench`. Target (reported, never asserted):
// listing, searching and summarising 1,000 notes of ~2 KB takes under 100 ms, so /notes stays quick at the cap.
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { Catalog } from "../server/catalog/index.ts";
import { createFieldCipher, encryptFields } from "../server/crypto/field-encryption.ts";
import { fromPglite } from "../server/db/client.ts";
import { notes, user } from "../server/db/schema.ts";
import { createNote, listNotes, noteLimits, noteSnippet, updateNote } from "../server/notes/index.ts";

export interface NotesResult {
  notes: number;
  bodyBytes: number;
  /** Creating and filling the last note, as New note and autosave do. */
  createLastMs: number;
  listMedianMs: number;
  listAndSearchMedianMs: number;
  listSnippetsMedianMs: number;
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function timed(run: () => Promise<unknown>, times: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return Number(median(samples).toFixed(1));
}

const paragraph =
  "Flexbox lays items out along a main axis set by flex-direction; justify-content spaces them along it and align-items places them across it. ";

export async function notesBench(): Promise<NotesResult> {
  const database = fromPglite(await PGlite.create());
  await database.migrate();
  const { db } = database;
  const cipher = createFieldCipher(randomBytes(32));
  const catalog = { courses: [] } as unknown as Catalog;
  const userId = "bench-learner";
  await db.insert(user).values({ id: userId, name: "Bench Learner", email: "bench@example.com" });

  const body = `## Notes\n\n${paragraph.repeat(14)}`;
  const count = noteLimits.perUser;
  // A learner writes notes minutes apart, each filled a minute after it was made; all but the last
  // are stored in one insert (writing them one by one would meet the per-person limit on note changes).
  const firstAt = Date.now() - count * 5 * 60_000;
  const at = (i: number) => new Date(firstAt + i * 5 * 60_000);
  const rows = Array.from({ length: count - 1 }, (_, index) => {
    const i = index + 1;
    return encryptFields(cipher, { userId, title: `Note ${i}`, body: `${body}\n\nNumber ${i}.`, createdAt: at(i), updatedAt: new Date(at(i).getTime() + 60_000) }, ["title", "body"]);
  });
  await db.insert(notes).values(rows);
  // The last as /notes makes it: "New note" creates a blank note, which autosave then fills.
  const started = performance.now();
  const last = await createNote(db, cipher, catalog, userId, { title: "", body: "" }, at(count));
  await updateNote(db, cipher, userId, last.id, { title: `Note ${count}`, body: `${body}\n\nNumber ${count}. Grid areas.` }, new Date(at(count).getTime() + 60_000));
  const createLastMs = Number((performance.now() - started).toFixed(1));

  const result: NotesResult = {
    notes: count,
    bodyBytes: Buffer.byteLength(body),
    createLastMs,
    listMedianMs: await timed(() => listNotes(db, cipher, userId), 20),
    listAndSearchMedianMs: await timed(() => listNotes(db, cipher, userId, { query: "grid areas" }), 20),
    listSnippetsMedianMs: await timed(async () => (await listNotes(db, cipher, userId, { limit: 100 })).notes.map((n) => noteSnippet(n.body)), 20),
  };
  await database.close();
  return result;
}

export function printNotes(r: NotesResult) {
  console.log(`\nNotes at the cap (${r.notes} notes of ${(r.bodyBytes / 1024).toFixed(1)} KB, encrypted, PGlite)`);
  console.log(`  create and fill the ${r.notes}th: ${r.createLastMs} ms · list: ${r.listMedianMs} ms · list + search: ${r.listAndSearchMedianMs} ms · first 100 + snippets: ${r.listSnippetsMedianMs} ms (medians of 20)`);
}

if (import.meta.main) {
  const result = await notesBench();
  printNotes(result);
  const outDir = path.join(import.meta.dirname, "results");
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, "notes.json"), JSON.stringify(result, null, 2) + "\n");
}
