import { Link } from "react-router";
import type { NoteLesson } from "../../../common/view-types.ts";
import { formatMoment } from "../../../common/format.ts";

export interface NoteListItem {
  id: string;
  title: string;
  snippet: string;
  updatedAt: string;
  lesson: NoteLesson | null;
  href: string;
}

/** The learner's notes as links; the open one is marked for assistive technology too. */
export function NoteList({ notes, selectedId, label }: { notes: NoteListItem[]; selectedId: string | null; label: string }) {
  return (
    <ul aria-label={label} className="space-y-1">
      {notes.map((note) => {
        const current = note.id === selectedId;
        return (
          <li key={note.id}>
            <Link
              to={note.href}
              aria-current={current ? "page" : undefined}
              preventScrollReset
              className={`block rounded-xl border px-4 py-3 ${
                current
                  ? "border-brand-300 bg-brand-50 dark:border-brand-700 dark:bg-slate-800"
                  : "border-transparent hover:border-slate-200 hover:bg-slate-50 dark:hover:border-slate-800 dark:hover:bg-slate-900"
              }`}
            >
              <span className="block truncate font-semibold text-slate-950 dark:text-white">{note.title || "Untitled note"}</span>
              {note.snippet && <span className="mt-0.5 line-clamp-2 block text-sm text-slate-600 dark:text-slate-400">{note.snippet}</span>}
              <span className="mt-1 block truncate text-xs text-slate-600 dark:text-slate-400">
                <time dateTime={note.updatedAt}>{formatMoment(note.updatedAt)}</time>
                {note.lesson && ` · ${note.lesson.courseTitle} · ${note.lesson.lessonId}`}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
