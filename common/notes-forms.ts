import { z } from "zod";

/** How long a note's title and text may be, as stored (after the clean-up below). */
export const noteLengths = { title: 200, body: 20_000 } as const;

// Runs of spaces and line breaks in a title become one space; forms send CRLF line endings, stored as LF.
const title = z
  .string()
  .overwrite((value) => value.replace(/\s+/g, " ").trim())
  .max(noteLengths.title, { error: (issue) => `Keep the title to ${noteLengths.title} characters or fewer (it has ${String(issue.input).length}).` });
const body = z
  .string()
  .overwrite((value) => value.replace(/\r\n?/g, "\n"))
  .max(noteLengths.body, {
    error: (issue) => `Keep a note to ${noteLengths.body.toLocaleString("en-IN")} characters or fewer (it has ${String(issue.input).length.toLocaleString("en-IN")}).`,
  });

/** A note's title and Markdown text: the notes page, a lesson's note form and the API's note bodies. */
export const noteContent = z.object({ title, body });
