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

/**
 * The learner's notes as links; the open one is marked for assistive technology too (and drawn by
 * its aria-current). The rows repeat for every note listed, so their looks are named in app.css.
 */
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
              className="note-row"
            >
              <span className="note-row-title">{note.title || "Untitled note"}</span>
              {note.snippet && <span className="note-row-snippet">{note.snippet}</span>}
              <span className="note-row-meta">
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
