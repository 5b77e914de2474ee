import { type RefObject, useEffect, useLayoutEffect, useRef, useSyncExternalStore } from "react";
import { createContext, data, Form, Link, redirect, useFetcher, useNavigate, useNavigation } from "react-router";
import { appServices, documentRequest } from "../../../server/context.ts";
import { attempt } from "../../../server/errors.ts";
import { completeLesson, issueCertificate, lessonView, RefundLimitAhead, refundLimitNotice, rememberLesson } from "../../../server/learning/index.ts";
import { createNote, listLessonNotes, noteLimits, renderNoteMarkdown } from "../../../server/notes/index.ts";
import { CourseProgress } from "../../components/account-progress.tsx";
import { CodeCopyButtons } from "../../components/code-copy-buttons.tsx";
import { ScrollableTables } from "../../components/scrollable-tables.tsx";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { ArrowLeftIcon, ArrowRightIcon, CheckIcon } from "../../components/icons.tsx";
import { LessonNotesPanel } from "../../components/notes/lesson-notes-panel.tsx";
import { CourseOutline, EnrolBanner } from "../../components/player/course-outline.tsx";
import { finishPath, lessonPath, modulePath } from "../../lib/course-paths.ts";
import { PlayerHeader } from "../../components/player/player-header.tsx";
import { useOpenWhenWide } from "../../components/player/use-open-when-wide.ts";
import { Prose } from "../../components/page-intro.tsx";
import { pageMeta } from "../../lib/seo.ts";
import { htmlOnce, useHtmlOnce, type HtmlOnce } from "../../lib/server-html.ts";
import type { RouteHandle } from "../../root.tsx";
import { z } from "zod";
import { flag, replyFor } from "../../../common/forms.ts";
import { noteContent } from "../../../common/notes-forms.ts";
import type { Route } from "./+types/learn-lesson";
import { attemptFor, readForm, succeed } from "../forms.server.ts";
import { loadCourseState, loadCourseStateOrVisitor, playerSummary } from "./player.server.ts";
import { Button, ButtonLink } from "../../components/ui/button.tsx";

/** Set while this request runs the page's action: the page it renders after a form is not the learner opening the lesson. */
const actionRan = createContext(false);

export async function loader({ params, context }: Route.LoaderArgs) {
  const { viewer, state, catalog, db } = await loadCourseStateOrVisitor(context, params.courseId);
  const found = await attempt(async () => lessonView(catalog, state, params.lessonId));
  if (!found.ok) throw data(null, { status: 404 });
  const view = found.value;
  // Opening a lesson (there is no prefetching) is what "Continue where you left off" remembers; a
  // form posted here, refused or not, is not opening it.
  // Opened again (a reload, the way back): the position is this lesson already, and nothing is written.
  if (viewer && view.access === "enrolled" && !context.get(actionRan) && state.lastLessonId !== view.lesson.id) await rememberLesson(db, viewer.id, state.course.id, view.lesson.id);
  const notes = !viewer || view.access === "locked" ? { notes: [], total: 0 } : await listLessonNotes(db, context.get(appServices).cipher, viewer.id, state.course.id, view.lesson.id);
  const summary = playerSummary(state);
  const { shop } = context.get(appServices);
  const page = {
    ...summary,
    lesson: { id: view.lesson.id, title: view.lesson.title, minutes: view.lesson.minutes, preview: view.lesson.preview, videoEmbedUrl: view.lesson.videoEmbedUrl },
    moduleNumber: view.moduleNumber,
    moduleTitle: state.course.modules[view.moduleNumber - 1]?.title ?? "",
    previous: view.previous && { id: view.previous.id, title: view.previous.title },
    next: view.next && { id: view.next.id, title: view.next.title },
    access: view.access,
    done: state.completed.has(view.lesson.id),
    // Completing this lesson finishes the course: every other lesson is done, or it is the last one.
    finishes: view.next === null || state.completed.size + (state.completed.has(view.lesson.id) ? 0 : 1) === state.course.lessonCount,
    refundNotice: viewer && (await refundLimitNotice(db, catalog, viewer.id, state, view.lesson.id, shop.now())),
    signedIn: viewer !== null,
    html: view.body ? htmlOnce(context.get(documentRequest), lessonBodyId, view.body.html) : null,
    headings: view.body?.headings.filter((h) => h.depth === 2) ?? [],
    notes: notes.notes.map((n) => ({ id: n.id, title: n.title, html: renderNoteMarkdown(n.body), updatedAt: n.updatedAt.toISOString() })),
    notesTotal: notes.total,
    noteLimits: { title: noteLimits.title, body: noteLimits.body },
  };
  // Locked lessons are refused on the server: no body, and a 403 for anything that reads the status.
  return view.access === "locked" ? data(page, { status: 403 }) : page;
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData ? `${args.loaderData.lesson.title} · ${args.loaderData.course.title}` : "Lesson",
    description: args.loaderData ? `Lesson ${args.loaderData.lesson.id} of ${args.loaderData.course.title}.` : "",
  });

const lessonForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add-note"), title: noteContent.shape.title, body: noteContent.shape.body.refine((body) => body.trim() !== "", "Write your note first: it is empty.") }),
  z.object({ intent: z.enum(["complete", "incomplete"]), acceptRefundLimit: flag("yes"), continue: flag("yes") }),
]);

export async function action({ params, request, context }: Route.ActionArgs) {
  context.set(actionRan, true);
  const { viewer, catalog, db } = await loadCourseState(context, params.courseId);
  const { cipher, logger, shop } = context.get(appServices);
  const form = await readForm(request, lessonForm);
  if (!form.ok) return form.reply;
  const input = form.value;
  switch (input.intent) {
    case "add-note": {
      const lesson = { courseId: params.courseId, lessonId: params.lessonId };
      const added = await attemptFor(form, () => createNote(db, cipher, catalog, viewer.id, { title: input.title, body: input.body, lesson }));
      return added.ok ? succeed(form) : added.reply;
    }
    case "complete":
    case "incomplete": {
      const complete = input.intent === "complete";
      const options = { acceptRefundLimit: input.acceptRefundLimit, now: shop.now() };
      // Completing would end a refund the learner can still ask for: the notice stands in for the confirmation the form lacked.
      const completed = await attemptFor(
        form,
        () => completeLesson(db, catalog, viewer.id, { courseId: params.courseId, lessonId: params.lessonId, complete }, options),
        (error) => (error instanceof RefundLimitAhead ? { message: null, fieldErrors: { acceptRefundLimit: error.message } } : undefined),
      );
      if (!completed.ok) return completed.reply;
      if (!complete || !input.continue) return succeed(form);
      // "Complete and continue": on to the next lesson, or to the finish line once every lesson is done.
      const state = completed.value;
      if (state.nextLessonId === null) {
        // The certificate is issued with the course's last lesson; a refusal (no name yet) is explained on the finish page.
        await attempt(() => issueCertificate({ db, cipher, logger, catalog }, viewer.id, params.courseId));
        throw redirect(finishPath(params.courseId));
      }
      const next = lessonView(catalog, state, params.lessonId).next;
      throw redirect(next ? lessonPath(params.courseId, next.id) : finishPath(params.courseId));
    }
  }
}

const lessonBodyId = "lesson-body";
/** The lesson's element, where the player's "Skip to lesson" link takes the keyboard, past the course contents. */
const lessonElementId = "lesson";

/** The lesson's text, sent once: in the document, or in the data of a client-side navigation; its code blocks get Copy buttons. */
function LessonBody({ html }: { html: HtmlOnce }) {
  const body = useHtmlOnce(lessonBodyId, html);
  return (
    <>
      <Prose id={lessonBodyId} html={body} className="mt-8 max-w-3xl" />
      <CodeCopyButtons containerId={lessonBodyId} html={body} />
      <ScrollableTables containerId={lessonBodyId} html={body} />
    </>
  );
}

/** ← and → move between lessons, unless the learner is typing somewhere. */
function useArrowKeys(previous: string | null, next: string | null) {
  const navigate = useNavigate();
  // One listener for the page's life, reading the current lesson's neighbours, so a key pressed
  // just after moving never uses the lesson before's.
  const targets = useRef({ previous, next });
  useLayoutEffect(() => {
    targets.current = { previous, next };
  }, [previous, next]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable='true']")) return;
      const to = event.key === "ArrowLeft" ? targets.current.previous : event.key === "ArrowRight" ? targets.current.next : null;
      if (to) void navigate(to);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [navigate]);
}

export const handle: RouteHandle = { focused: true };

const sidebarKey = "academy:player-contents";
const sidebarEvent = "academy:player-contents";

function readSidebar(): boolean {
  try {
    return localStorage.getItem(sidebarKey) === "hidden";
  } catch {
    // Storage blocked: the contents stay shown.
    return false;
  }
}

function subscribeSidebar(changed: () => void) {
  window.addEventListener(sidebarEvent, changed);
  window.addEventListener("storage", changed);
  return () => {
    window.removeEventListener(sidebarEvent, changed);
    window.removeEventListener("storage", changed);
  };
}

/** Whether the learner hid the contents beside the lesson (wide screens), remembered in this browser. */
function useRememberedSidebar() {
  const hidden = useSyncExternalStore(subscribeSidebar, readSidebar, () => false);
  const toggle = () => {
    try {
      localStorage.setItem(sidebarKey, hidden ? "shown" : "hidden");
    } catch {
      // Storage blocked: nothing to remember it in.
    }
    window.dispatchEvent(new Event(sidebarEvent));
  };
  return { hidden, toggle };
}

/** Scrolls the contents (not the page) so the current lesson sits in their middle, on each lesson. */
function useCurrentLessonInView(contents: RefObject<HTMLElement | null>, lessonId: string) {
  useEffect(() => {
    const nav = contents.current;
    const current = nav?.querySelector<HTMLElement>(`a[href$="/submodule/${lessonId}"]`);
    if (!nav || !current || nav.scrollHeight <= nav.clientHeight) return;
    const offset = current.getBoundingClientRect().top - nav.getBoundingClientRect().top + nav.scrollTop;
    nav.scrollTo({ top: offset - nav.clientHeight / 2 + current.offsetHeight / 2 });
  }, [contents, lessonId]);
}

/** The lesson's one primary action; the links to other lessons beside it are secondary while it is there. */
const completeStyle = { variant: "primary", className: "inline-flex items-center gap-2" } as const;

/**
 * The learner's own act of completing the lesson, then on to the next one (or the finish line).
 * When that would end a refund they can still ask for, they are told first and asked to confirm.
 */
function CompleteLesson({ finishes, refundNotice }: { finishes: boolean; refundNotice: string | null }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "complete";
  const label = finishes ? "Finish course" : "Complete and continue";
  const pendingLabel = finishes ? "Finishing…" : "Saving…";
  const fields = { intent: "complete", continue: "yes" };
  const content = (
    <>
      <CheckIcon className="size-5" /> {pending ? pendingLabel : label}
      {!finishes && !pending && <ArrowRightIcon className="size-4" />}
    </>
  );
  if (refundNotice) {
    return (
      <div className="mb-6">
        <ConfirmDialog
          trigger={content}
          triggerStyle={completeStyle}
          title="This ends your refund"
          fields={{ ...fields, acceptRefundLimit: "yes" }}
          confirmLabel={finishes ? "Finish anyway" : "Complete anyway"}
          pendingLabel={pendingLabel}
          pending={pending}
        >
          <p>{refundNotice}</p>
        </ConfirmDialog>
      </div>
    );
  }
  return (
    <Form method="post" className="mb-6">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" disabled={pending} {...completeStyle}>
        {content}
      </Button>
    </Form>
  );
}

export default function LessonPage({ loaderData, actionData }: Route.ComponentProps) {
  const { course, lesson, previous, next, access, done, finishes, refundNotice, html, headings, outline, percent, completed, moduleNumber, moduleTitle, notes } =
    loaderData;
  const progress = useFetcher();
  const enrolled = access === "enrolled";
  // Visitors reading a free preview go back to the course's public page.
  const homePath = loaderData.signedIn ? `/courses/${course.id}/MainPage` : `/course/${course.id}`;
  const previousPath = previous && lessonPath(course.id, previous.id);
  const nextPath = next && lessonPath(course.id, next.id);
  useArrowKeys(previousPath, nextPath);
  const contents = useRef<HTMLDetailsElement>(null);
  useOpenWhenWide(contents);
  const sidebar = useRememberedSidebar();
  const navigation = useRef<HTMLElement>(null);
  useCurrentLessonInView(navigation, lesson.id);

  const progressProblem = replyFor(actionData, "complete", "incomplete")?.message;
  const showDone = progress.formData ? progress.formData.get("intent") === "complete" : done;
  // One primary action at the lesson's end: completing it while it is open to complete, else moving on.
  const onward = enrolled && !showDone ? "secondary" : "primary";

  const lessons = outline.flatMap((m) => m.lessons);
  const position = lessons.findIndex((l) => l.id === lesson.id) + 1;

  return (
    <>
      <PlayerHeader course={course} homePath={homePath} progress={enrolled ? { percent, completed, total: course.lessonCount } : null} sidebar={sidebar} lessonElementId={lessonElementId} />
      <main id="main" className="flex-1">
        <div className={`mx-auto max-w-7xl px-4 py-8 sm:px-6 ${sidebar.hidden ? "" : "lg:grid lg:grid-cols-[18rem_1fr] lg:gap-10"}`}>
          <nav
            ref={navigation}
            aria-label="Course contents"
            // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- wide screens scroll the contents on their own, so the region takes focus for the keyboard to scroll it (WCAG 2.1.1), also before script opens the drawer inside
            tabIndex={0}
            className={`rounded-xl lg:sticky lg:top-20 lg:max-h-[calc(100vh-6rem)] lg:self-start lg:overflow-y-auto ${sidebar.hidden ? "lg:hidden" : ""}`}
          >
            {/* A drawer on phones; always open beside the lesson on wide screens. */}
            <details
              ref={contents}
              className="group rounded-xl border border-slate-200 lg:border-0 lg:[&::details-content]:[content-visibility:visible] dark:border-slate-800"
            >
              <summary className="cursor-pointer list-none px-4 py-3 font-semibold text-slate-950 lg:hidden dark:text-white">
                Course contents <span aria-hidden="true">▾</span>
              </summary>
              <div className="px-1 pb-4 lg:px-0">
                <Link to={homePath} className="block px-3 text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300">
                  {course.title}
                </Link>
                {enrolled && (
                  <div className="mt-3 px-3">
                    <CourseProgress title={course.title} percent={percent} completed={completed} total={course.lessonCount} />
                  </div>
                )}
                <p className="mt-3 px-3 text-xs font-medium text-slate-600 dark:text-slate-400">
                  You are on lesson {position} of {course.lessonCount}
                </p>
                <div className="mt-4">
                  <CourseOutline courseId={course.id} outline={outline} currentLessonId={lesson.id} />
                </div>
              </div>
            </details>
          </nav>

          <article id={lessonElementId} tabIndex={-1} aria-labelledby="lesson-title" className="mt-6 min-w-0 focus:outline-none lg:mt-0">
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {loaderData.signedIn ? (
                <Link to={modulePath(course.id, moduleNumber)} className="hover:underline">
                  Module {moduleNumber}: {moduleTitle}
                </Link>
              ) : (
                `Module ${moduleNumber}: ${moduleTitle}`
              )}{" "}
              · Lesson {lesson.id} · {lesson.minutes} min{lesson.preview ? " · Free preview" : ""}
            </p>
            <h1 id="lesson-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-950 dark:text-white">
              {lesson.title}
            </h1>

            {access === "locked" ? (
              <div className="mt-8 max-w-2xl">
                <EnrolBanner course={course} lesson="locked" />
              </div>
            ) : (
              <>
                {access === "preview" && (
                  <div className="mt-6 max-w-3xl">
                    <EnrolBanner course={course} lesson="preview" />
                  </div>
                )}
                {headings.length > 2 && (
                  <nav aria-label="On this page" className="mt-6 max-w-3xl rounded-xl bg-slate-50 p-4 text-sm dark:bg-slate-900">
                    <p className="font-semibold text-slate-950 dark:text-white">On this page</p>
                    <ul className="mt-2 grid gap-1 sm:grid-cols-2">
                      {headings.map((h) => (
                        <li key={h.id}>
                          <a href={`#${h.id}`} className="text-brand-700 hover:underline dark:text-brand-300">
                            {h.text}
                          </a>
                        </li>
                      ))}
                    </ul>
                  </nav>
                )}
                {lesson.videoEmbedUrl && (
                  <div className="mt-6 aspect-video max-w-3xl overflow-hidden rounded-xl bg-slate-900">
                    <iframe
                      src={lesson.videoEmbedUrl}
                      title={`Video: ${lesson.title}`}
                      loading="lazy"
                      allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen"
                      allowFullScreen
                      // The players need their own origin's scripts and storage; the address is a privacy-enhanced embed from content/.
                      // oxlint-disable-next-line react/iframe-missing-sandbox
                      sandbox="allow-scripts allow-same-origin allow-presentation allow-popups"
                      className="size-full"
                    />
                  </div>
                )}
                {html && <LessonBody html={html} />}
              </>
            )}

            <div id="lesson-end" className="mt-10 max-w-3xl border-t border-slate-200 pt-6 dark:border-slate-800">
              {enrolled &&
                (showDone ? (
                  <progress.Form method="post" className="mb-6">
                    <input type="hidden" name="intent" value="incomplete" />
                    <p className="flex flex-wrap items-center gap-3">
                      <span role="status" className="inline-flex items-center gap-2 font-semibold text-emerald-700 dark:text-emerald-300">
                        <CheckIcon className="size-5" /> Lesson complete
                      </span>
                      <button
                        type="submit"
                        className="text-sm text-slate-600 underline underline-offset-2 hover:text-slate-950 dark:text-slate-400 dark:hover:text-white"
                      >
                        Mark as not done
                      </button>
                    </p>
                  </progress.Form>
                ) : (
                  <CompleteLesson finishes={finishes} refundNotice={replyFor(actionData, "complete")?.fieldErrors.acceptRefundLimit ?? refundNotice} />
                ))}
              {progressProblem && (
                <p role="alert" className="mb-6 text-sm text-red-700 dark:text-red-300">
                  {progressProblem}
                </p>
              )}
              <div className="flex flex-wrap justify-between gap-3">
                {previousPath && previous ? (
                  <ButtonLink
                    to={previousPath}
                    rel="prev"
                    variant="secondary"
                    size="sm"
                    className="inline-flex items-center gap-2"
                  >
                    <ArrowLeftIcon className="size-4" /> Previous: {previous.id}
                  </ButtonLink>
                ) : (
                  <span />
                )}
                {nextPath && next ? (
                  <ButtonLink
                    to={nextPath}
                    rel="next"
                    variant={onward}
                    size="sm"
                    className="inline-flex items-center gap-2"
                  >
                    Next: {next.id} {next.title} <ArrowRightIcon className="size-4" />
                  </ButtonLink>
                ) : (
                  <ButtonLink to={homePath} variant={onward} size="sm" className="inline-flex items-center gap-2">
                    Back to the course home <ArrowRightIcon className="size-4" />
                  </ButtonLink>
                )}
              </div>
              <p className="mt-4 hidden text-xs text-slate-500 sm:block dark:text-slate-400">Tip: use the ← and → keys to move between lessons.</p>
            </div>
            {loaderData.signedIn && access !== "locked" && (
              <LessonNotesPanel
                lessonTitle={lesson.title}
                notes={notes}
                total={loaderData.notesTotal}
                limits={loaderData.noteLimits}
                fallback={replyFor(actionData, "add-note")}
              />
            )}
          </article>
        </div>
      </main>
    </>
  );
}
