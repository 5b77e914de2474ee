import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Form, Link, useFetcher } from "react-router";
import type { NoteLesson } from "../../../common/view-types.ts";
import { formatMoment } from "../../../common/format.ts";
import { replyProblem, type FormReply } from "../../../common/forms.ts";
import { Prose } from "../page-intro.tsx";
import { noteLessonLink } from "./notes-href.ts";
import { Button } from "../ui/button.tsx";
import { controlClass } from "../ui/field.tsx";
import { cardClass } from "../ui/card.tsx";

export interface EditedNote {
  id: string;
  title: string;
  body: string;
  html: string;
  updatedAt: string;
  lesson: NoteLesson | null;
}

interface Content {
  title: string;
  body: string;
}

const autosaveDelayMs = 1000;

const tabClass = (active: boolean) =>
  `rounded-md px-3 py-1.5 text-sm font-medium ${
    active ? "bg-white text-slate-950 shadow-sm dark:bg-slate-700 dark:text-white" : "text-slate-600 hover:text-slate-950 dark:text-slate-300 dark:hover:text-white"
  }`;

/**
 * Saves the note a second after typing stops, when a field loses focus, and on "Save" (the only
 * way without JavaScript). One save at a time, so an older one never lands after a newer one.
 */
function useAutosave(noteId: string, current: Content, initial: Content, preview: boolean) {
  const fetcher = useFetcher<FormReply>();
  const [saved, setSaved] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const sending = useRef<Content | null>(null);
  const dirty = current.title !== saved.title || current.body !== saved.body;
  const busy = fetcher.state !== "idle";

  const save = useCallback(() => {
    if (busy) return;
    sending.current = current;
    setError(null);
    void fetcher.submit({ intent: "save", noteId, title: current.title, body: current.body }, { method: "post" });
  }, [busy, current, fetcher, noteId]);

  // The answer to the last save: remember what is stored, or say why it is not.
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || !sending.current) return;
    const sent = sending.current;
    sending.current = null;
    if (fetcher.data.ok) setSaved(sent);
    else setError(replyProblem(fetcher.data) ?? "Your note could not be saved.");
  }, [fetcher.state, fetcher.data]);

  useEffect(() => {
    if (!dirty || busy || error) return;
    const timer = setTimeout(save, preview ? 0 : autosaveDelayMs);
    return () => clearTimeout(timer);
  }, [dirty, busy, error, preview, save]);

  // Leaving with changes not yet stored: let the browser ask first.
  useEffect(() => {
    if (!dirty && !busy) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty, busy]);

  const status = error ? "error" : busy ? "saving" : dirty ? "unsaved" : "saved";
  const flush = () => {
    if (dirty) save();
  };
  return { status, error, save, flush, clearError: () => setError(null) } as const;
}

/** One note: title, Markdown body with a rendered preview, autosave status, delete. */
export function NoteEditor({
  note,
  view,
  limits,
  hrefs,
}: {
  note: EditedNote;
  view: "write" | "preview";
  limits: { title: number; body: number };
  hrefs: { list: string; write: string; preview: string };
}) {
  const id = useId();
  const [title, setTitle] = useState(note.title);
  const [body, setBody] = useState(note.body);
  const preview = view === "preview";
  const autosave = useAutosave(note.id, { title, body }, { title: note.title, body: note.body }, preview);
  const lesson = note.lesson && noteLessonLink(note.lesson);
  const nearLimit = body.length > limits.body * 0.9;
  const titleInput = useRef<HTMLInputElement>(null);
  const bodyInput = useRef<HTMLTextAreaElement>(null);
  // The fields are the browser's own until the script arrives: what was typed before then is the note (and gets saved).
  useEffect(() => {
    setTitle(titleInput.current?.value ?? note.title);
    setBody(bodyInput.current?.value ?? note.body);
  }, [note.title, note.body]);
  const blank = !note.title && !note.body;
  // A new, empty note: start typing its title straight away.
  useEffect(() => {
    if (blank) titleInput.current?.focus();
  }, [blank]);
  const change = (set: (value: string) => void) => (value: string) => {
    autosave.clearError();
    set(value);
  };

  return (
    <article aria-labelledby={`${id}-heading`} className={cardClass({ raised: true, className: "p-4 sm:p-6" })}>
      <Link to={hrefs.list} className="mb-4 inline-block text-sm font-medium text-brand-700 hover:underline lg:hidden dark:text-brand-300">
        <span aria-hidden="true">←</span> All notes
      </Link>
      <h3 id={`${id}-heading`} className="sr-only">
        Edit note: {title || "Untitled note"}
      </h3>
      {lesson && (
        <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
          From the lesson{" "}
          <Link to={lesson.to} className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
            {lesson.label}
          </Link>
        </p>
      )}
      <Form
        method="post"
        onSubmit={(event) => {
          event.preventDefault();
          autosave.save();
        }}
      >
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="noteId" value={note.id} />
        <label htmlFor={`${id}-title`} className="sr-only">
          Title
        </label>
        <input
          id={`${id}-title`}
          name="title"
          defaultValue={note.title}
          maxLength={limits.title}
          placeholder="Untitled note"
          autoComplete="off"
          ref={titleInput}
          onChange={(event) => change(setTitle)(event.target.value)}
          onBlur={autosave.flush}
          className={controlClass({ className: "block w-full text-lg font-semibold" })}
        />
        <div className="mt-4 flex flex-wrap items-center justify-between gap-2">
          <label htmlFor={`${id}-body`} className="text-sm font-medium text-slate-800 dark:text-slate-200">
            Note <span className="font-normal text-slate-600 dark:text-slate-400">(Markdown)</span>
          </label>
          <div className="inline-flex rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
            <Link to={hrefs.write} replace preventScrollReset aria-current={preview ? undefined : "true"} className={tabClass(!preview)}>
              Write
            </Link>
            <Link to={hrefs.preview} replace preventScrollReset aria-current={preview ? "true" : undefined} className={tabClass(preview)}>
              Preview
            </Link>
          </div>
        </div>
        <textarea
          id={`${id}-body`}
          name="body"
          ref={bodyInput}
          defaultValue={note.body}
          maxLength={limits.body}
          rows={16}
          hidden={preview}
          aria-describedby={`${id}-hint`}
          placeholder="Write in Markdown: **bold**, _italic_, - lists, [links](https://example.com)"
          onChange={(event) => change(setBody)(event.target.value)}
          onBlur={autosave.flush}
          className={controlClass({ className: "mt-2 block w-full font-mono text-sm leading-6" })}
        />
        {preview && (
          <div className="mt-2 min-h-40 rounded-lg border border-slate-200 px-4 py-3 dark:border-slate-700">
            {note.html ? <Prose html={note.html} /> : <p className="text-sm text-slate-600 dark:text-slate-400">Nothing to preview yet.</p>}
          </div>
        )}
        <p id={`${id}-hint`} className="mt-2 text-xs text-slate-600 dark:text-slate-400">
          Saved as you type. Only you can see your notes; they are stored encrypted.
          {nearLimit && ` ${body.length.toLocaleString("en-IN")} of ${limits.body.toLocaleString("en-IN")} characters.`}
        </p>

        <div className="mt-4 flex flex-wrap items-center gap-3">
          <Button type="submit" size="sm">
            Save
          </Button>
          <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
            {autosave.status === "saving" && "Saving…"}
            {autosave.status === "saved" && (
              <>
                Saved <span className="text-slate-500 dark:text-slate-400">· last updated {formatMoment(note.updatedAt)}</span>
              </>
            )}
            {autosave.status === "unsaved" && "Unsaved changes"}
          </p>
        </div>
      </Form>
      {autosave.error && (
        <div role="alert" className="mt-3 flex flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
          <span>Not saved: {autosave.error}</span>
          <button type="button" onClick={autosave.save} className="font-semibold underline underline-offset-2">
            Try again
          </button>
        </div>
      )}
      <Form method="post" className="mt-6 border-t border-slate-200 pt-4 dark:border-slate-800">
        <input type="hidden" name="noteId" value={note.id} />
        <Button
          type="submit"
          name="intent"
          value="delete"
          variant="danger-outline"
          size="xs"
        >
          Delete note
        </Button>
      </Form>
    </article>
  );
}
