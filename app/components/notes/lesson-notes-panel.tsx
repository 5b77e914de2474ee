import { useEffect, useId, useRef } from "react";
import { Link, useFetcher } from "react-router";
import { formatMoment } from "../../../common/format.ts";
import { replyProblem, type FormReply } from "../../../common/forms.ts";
import { FormAlert } from "../form-alert.tsx";
import { Prose } from "../page-intro.tsx";
import { notesHref } from "./notes-href.ts";
import { Button } from "../ui/button.tsx";
import { TextArea, TextField } from "../ui/field.tsx";
import { cardClass } from "../ui/card.tsx";

export interface LessonNote {
  id: string;
  title: string;
  html: string;
  updatedAt: string;
}


/**
 * The learner's notes on this lesson, newest first, and a form to add one. It posts to the lesson's
 * own action; `fallback` is that action's answer when the form was sent without JavaScript.
 */
export function LessonNotesPanel({
  lessonTitle,
  notes,
  total,
  limits,
  fallback,
}: {
  lessonTitle: string;
  notes: LessonNote[];
  /** How many notes the learner has on this lesson; the page shows the latest few. */
  total: number;
  limits: { title: number; body: number };
  fallback: FormReply | undefined;
}) {
  const id = useId();
  const fetcher = useFetcher<FormReply>();
  const form = useRef<HTMLFormElement>(null);
  const result = fetcher.data ?? fallback;
  const adding = fetcher.state !== "idle";

  // Added: clear the form for the next note.
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) form.current?.reset();
  }, [fetcher.state, fetcher.data]);

  return (
    <section aria-labelledby={`${id}-heading`} className={cardClass({ className: "mt-10 max-w-3xl p-4 sm:p-6" })}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-950 dark:text-white">
          Your notes on this lesson
        </h2>
        <Link to="/notes" className="text-sm font-medium text-brand-700 hover:underline dark:text-brand-300">
          All notes
        </Link>
      </div>

      {notes.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">No notes yet. Only you can see the notes you write here.</p>
      ) : (
        <ul className="mt-4 space-y-4">
          {notes.map((note) => (
            <li key={note.id} className="rounded-xl bg-slate-50 p-4 dark:bg-slate-900">
              <article aria-labelledby={`${id}-${note.id}`}>
                <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
                  <h3 id={`${id}-${note.id}`} className="font-semibold text-slate-950 dark:text-white">
                    {note.title || "Untitled note"}
                  </h3>
                  <time dateTime={note.updatedAt} className="text-xs text-slate-600 dark:text-slate-400">
                    {formatMoment(note.updatedAt)}
                  </time>
                </div>
                {note.html && <Prose html={note.html} className="mt-2 text-sm" />}
                <Link to={notesHref({ note: note.id })} className="mt-2 inline-block text-sm font-medium text-brand-700 hover:underline dark:text-brand-300">
                  Open in Notes<span className="sr-only">: {note.title || "Untitled note"}</span>
                </Link>
              </article>
            </li>
          ))}
        </ul>
      )}
      {total > notes.length && (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
          These are the latest {notes.length} of your {total} notes on this lesson; <Link to="/notes" className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">All notes</Link> has every one.
        </p>
      )}

      <fetcher.Form ref={form} method="post" className="mt-6 space-y-3" aria-labelledby={`${id}-add`} noValidate>
        <h3 id={`${id}-add`} className="text-sm font-semibold text-slate-950 dark:text-white">
          Add a note
        </h3>
        {replyProblem(result) && <FormAlert>{replyProblem(result)}</FormAlert>}
        <TextField
          id={`${id}-title`}
          label={
            <>
              Title <span className="font-normal text-slate-600 dark:text-slate-400">(optional)</span>
            </>
          }
          name="title"
          maxLength={limits.title}
          placeholder={lessonTitle}
          autoComplete="off"
          compact
        />
        <TextArea
          id={`${id}-body`}
          label={
            <>
              Note <span className="font-normal text-slate-600 dark:text-slate-400">(Markdown)</span>
            </>
          }
          name="body"
          required
          maxLength={limits.body}
          rows={4}
          compact
          className="font-mono"
        />
        <Button
          type="submit"
          name="intent"
          value="add-note"
          disabled={adding}
          size="sm"
        >
          {adding ? "Adding…" : "Add note"}
        </Button>
        <p role="status" className="text-sm text-emerald-700 empty:hidden dark:text-emerald-300">
          {fetcher.state === "idle" && fetcher.data?.ok ? "Note added." : ""}
        </p>
      </fetcher.Form>
    </section>
  );
}
