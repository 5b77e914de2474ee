import { useEffect, useRef } from "react";
import { data, Form, Link, redirect, useNavigation, useSubmit } from "react-router";
import { appServices, requireViewer } from "../../../server/context.ts";
import { attempt } from "../../../server/errors.ts";
import { z } from "zod";
import { refused, replyProblem, sentForm } from "../../../common/forms.ts";
import { noteContent } from "../../../common/notes-forms.ts";
import {
  createNote,
  deleteNote,
  describeNoteLesson,
  getNote,
  isDeletedNote,
  listNotes,
  noteLimits,
  noteSnippet,
  renderNoteMarkdown,
  restoreNote,
  updateNote,
  type NoteSort,
} from "../../../server/notes/index.ts";
import { AccountEmptyState } from "../../components/account-empty-state.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { DeletedNoteToast } from "../../components/notes/deleted-note-toast.tsx";
import { NoteEditor } from "../../components/notes/note-editor.tsx";
import { NoteList } from "../../components/notes/note-list.tsx";
import { notesHref } from "../../components/notes/notes-href.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/notes";
import { Button } from "../../components/ui/button.tsx";
import { controlClass } from "../../components/ui/field.tsx";
import { attemptFor, readForm, succeed } from "../forms.server.ts";

/** How many notes the list shows before "Show all": a screenful and more, and search finds the rest. */
const listLength = 20;

function readQuery(url: URL) {
  const params = url.searchParams;
  const sort: NoteSort = params.get("sort") === "oldest" ? "oldest" : "newest";
  return {
    q: (params.get("q") ?? "").trim().slice(0, 200),
    sort,
    note: params.get("note"),
    view: params.get("view") === "preview" ? ("preview" as const) : ("write" as const),
    deleted: params.get("deleted"),
    all: params.get("all") === "1",
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context);
  const { catalog, cipher, db } = context.get(appServices);
  const query = readQuery(new URL(request.url));
  const limit = query.all ? undefined : listLength;
  // A search past the learner's limit for the minute still shows the list, with why it is not searched.
  const searched = await attempt(() => listNotes(db, cipher, viewer.id, { sort: query.sort, query: query.q, limit }));
  const list = searched.ok ? searched.value : await listNotes(db, cipher, viewer.id, { sort: query.sort, limit: listLength });
  const noteId = query.note;
  const found = noteId ? await attempt(() => getNote(db, cipher, viewer.id, noteId)) : null;
  if (found && !found.ok) throw data(null, { status: 404 });
  const selected = found?.value;
  return {
    ...query,
    total: list.total,
    matching: list.matching,
    searchProblem: searched.ok ? null : searched.message,
    limits: { title: noteLimits.title, body: noteLimits.body },
    deleted: query.deleted && (await isDeletedNote(db, viewer.id, query.deleted)) ? query.deleted : null,
    notes: list.notes.map((n) => ({
      id: n.id,
      title: n.title,
      snippet: noteSnippet(n.body),
      updatedAt: n.updatedAt.toISOString(),
      lesson: describeNoteLesson(catalog, n),
      href: notesHref({ note: n.id, q: query.q, sort: query.sort, view: query.view, all: query.all }),
    })),
    selected: selected
      ? {
          id: selected.id,
          title: selected.title,
          body: selected.body,
          html: renderNoteMarkdown(selected.body),
          updatedAt: selected.updatedAt.toISOString(),
          lesson: describeNoteLesson(catalog, selected),
        }
      : null,
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.selected ? `${args.loaderData.selected.title || "Untitled note"} · Notes` : "Notes",
    description: "Your private notes, on their own or on the lessons you take.",
  });

const noteId = z.string();
const notesForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create") }),
  z.object({ intent: z.literal("save"), noteId, ...noteContent.shape }),
  z.object({ intent: z.literal("delete"), noteId }),
  z.object({ intent: z.literal("restore"), noteId }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context);
  const { catalog, cipher, db } = context.get(appServices);
  const { q, sort } = readQuery(new URL(request.url));
  const form = await readForm(request, notesForm);
  if (!form.ok) return form.reply;
  const input = form.value;
  switch (input.intent) {
    case "create": {
      const made = await attemptFor(form, () => createNote(db, cipher, catalog, viewer.id, { title: "", body: "" }));
      if (!made.ok) return made.reply;
      throw redirect(notesHref({ note: made.value.id, sort }));
    }
    case "save": {
      const saved = await attemptFor(form, () => updateNote(db, cipher, viewer.id, input.noteId, { title: input.title, body: input.body }));
      return saved.ok ? succeed(form) : saved.reply;
    }
    case "delete": {
      const deleted = await attemptFor(form, () => deleteNote(db, viewer.id, input.noteId));
      if (!deleted.ok) return deleted.reply;
      throw redirect(notesHref({ q, sort, deleted: input.noteId }));
    }
    case "restore": {
      const restored = await attemptFor(form, () => restoreNote(db, viewer.id, input.noteId));
      if (!restored.ok) return restored.reply;
      throw redirect(notesHref({ q, sort, note: input.noteId }));
    }
  }
}

/**
 * A save that never reached the server (offline, or the server failed) is a result to show, with a
 * retry, not an error page. Its error status keeps the router from reloading the page's data.
 */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const sent = sentForm(await request.clone().formData());
  try {
    return await serverAction();
  } catch (error) {
    if (error instanceof Response) throw error;
    return data(refused(sent, "We could not reach the server. Check your connection; your text is still here."), { status: 503 });
  }
}

function SearchForm({ q, sort, note }: { q: string; sort: NoteSort; note: string | null }) {
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // Results follow the typing (after a pause) and the sort choice; the button is there without JavaScript.
  const submitSoon = (form: HTMLFormElement, delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void submit(form, { replace: true, preventScrollReset: true }), delay);
  };
  return (
    <Form method="get" role="search" aria-label="Notes" className="space-y-2" onChange={(event) => submitSoon(event.currentTarget, 300)}>
      {note && <input type="hidden" name="note" value={note} />}
      <div className="flex gap-2">
        <label htmlFor="notes-q" className="sr-only">
          Search notes
        </label>
        <input
          id="notes-q"
          type="search"
          name="q"
          defaultValue={q}
          placeholder="Search notes"
          className={controlClass({ compact: true, className: "min-w-0 flex-1" })}
        />
        <button type="submit" className="rounded-lg border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800">
          Search
        </button>
      </div>
      <div className="flex items-center gap-2 text-sm">
        <label htmlFor="notes-sort" className="text-slate-600 dark:text-slate-400">
          Sort
        </label>
        <select
          id="notes-sort"
          name="sort"
          defaultValue={sort}
          className="rounded-lg border border-slate-300 bg-white px-2 py-1 text-slate-950 dark:border-slate-700 dark:bg-slate-900 dark:text-white"
        >
          <option value="newest">Last updated first</option>
          <option value="oldest">Oldest updates first</option>
        </select>
      </div>
    </Form>
  );
}

export default function NotesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { notes, selected, total, matching, q, sort, view, deleted, limits, all, searchProblem } = loaderData;
  const navigation = useNavigation();
  const creating = navigation.formData?.get("intent") === "create";
  // A failed save is shown in the editor, beside the text it concerns.
  const problem = actionData?.intent === "save" ? null : replyProblem(actionData);

  return (
    <section aria-labelledby="notes-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="notes-heading" className="text-xl font-semibold tracking-tight text-slate-950 dark:text-white">
            Notes
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">Private to you and stored encrypted. Notes written on a lesson link back to it.</p>
        </div>
        <Form method="post">
          <Button
            type="submit"
            name="intent"
            value="create"
            disabled={creating}
          >
            New note
          </Button>
        </Form>
      </div>

      {problem && (
        <div className="mt-4">
          <FormAlert>{problem}</FormAlert>
        </div>
      )}

      {total === 0 ? (
        <div className="mt-6">
          <AccountEmptyState title="You have no notes yet" action={{ to: "/account/courses", label: "Go to your courses" }}>
            Start one with “New note”, or write one under any lesson you are taking: it stays linked to that lesson.
          </AccountEmptyState>
        </div>
      ) : (
        <div className="mt-6 lg:grid lg:grid-cols-[20rem_minmax(0,1fr)] lg:gap-8">
          {/* On phones the list and the open note take turns; on wide screens they sit side by side. */}
          <div className={selected ? "hidden lg:block" : ""}>
            <SearchForm q={q} sort={sort} note={selected?.id ?? null} />
            {searchProblem ? (
              <div className="mt-4">
                <FormAlert>{searchProblem}</FormAlert>
              </div>
            ) : (
              <p role="status" className="mt-4 text-sm text-slate-600 dark:text-slate-400">
                {q ? `${matching} of ${total} ${total === 1 ? "note matches" : "notes match"} “${q}”` : `${total} ${total === 1 ? "note" : "notes"}`}
              </p>
            )}
            {notes.length === 0 ? (
              <p className="mt-3 rounded-xl border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
                No notes match your search.{" "}
                <Link to={notesHref({ note: selected?.id, sort })} className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
                  Clear the search
                </Link>
              </p>
            ) : (
              <div className="mt-3">
                <NoteList notes={notes} selectedId={selected?.id ?? null} label={sort === "oldest" ? "Notes, oldest updates first" : "Notes, last updated first"} />
                {notes.length < matching && (
                  <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
                    Showing the first {notes.length} of {matching}; search finds any of them.{" "}
                    <Link
                      to={notesHref({ note: selected?.id, q, sort, view, all: true })}
                      preventScrollReset
                      className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300"
                    >
                      Show all {matching}
                    </Link>
                  </p>
                )}
              </div>
            )}
          </div>
          <div className={selected ? "" : "hidden lg:block"}>
            {selected ? (
              <NoteEditor
                key={selected.id}
                note={selected}
                view={view}
                limits={limits}
                hrefs={{
                  list: notesHref({ q, sort, all }),
                  write: notesHref({ note: selected.id, q, sort, all }),
                  preview: notesHref({ note: selected.id, q, sort, view: "preview", all }),
                }}
              />
            ) : (
              <p className="grid min-h-64 place-items-center rounded-2xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
                Choose a note to read or edit it, or start a new one.
              </p>
            )}
          </div>
        </div>
      )}
      {deleted && <DeletedNoteToast key={deleted} noteId={deleted} />}
    </section>
  );
}
