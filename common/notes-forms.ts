import { z } from "zod";
import { noteLength } from "./limits.ts";

// Runs of spaces and line breaks in a title become one space; forms send CRLF line endings, stored as LF.
const title = z
  .string()
  .overwrite((value) => value.replace(/\s+/g, " ").trim())
  .max(noteLength.title, { error: (issue) => `Keep the title to ${noteLength.title} characters or fewer (it has ${String(issue.input).length}).` });
const body = z
  .string()
  .overwrite((value) => value.replace(/\r\n?/g, "\n"))
  .max(noteLength.body, {
    error: (issue) => `Keep a note to ${noteLength.body.toLocaleString("en-IN")} characters or fewer (it has ${String(issue.input).length.toLocaleString("en-IN")}).`,
  });

/** A note's title and Markdown text, cleaned as stored: the notes page, a lesson's note form, and the domain for every caller. */
export const noteContent = z.object({ title, body });
