import { Link, useRouteLoaderData } from "react-router";
import type { RootData } from "../../lib/seo.ts";
import { ArrowLeftIcon } from "../icons.tsx";
import { ThemeToggle } from "../theme-toggle.tsx";
import { UserMenu } from "../user-menu.tsx";
import { SkipLink } from "../skip-link.tsx";
import { Button, ButtonLink } from "../ui/button.tsx";

/**
 * The player's own slim header: the way back to the course, where the learner is, and their
 * account; none of the site's marketing navigation. Its skip link goes past the course contents
 * too, straight to the lesson (the element `lessonElementId`).
 */
export function PlayerHeader({
  course,
  homePath,
  progress,
  sidebar,
  lessonElementId,
}: {
  course: { title: string };
  homePath: string;
  progress: { percent: number; completed: number; total: number } | null;
  sidebar: { hidden: boolean; toggle: () => void };
  lessonElementId: string;
}) {
  const root = useRouteLoaderData("root") as RootData | undefined;
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200/80 bg-white/95 backdrop-blur print:hidden dark:border-slate-800 dark:bg-slate-950/95">
      <SkipLink href={`#${lessonElementId}`} label="Skip to lesson" />
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-3 px-4 sm:px-6">
        <Link
          to="/"
          aria-label={`${root?.site.name ?? "Academy"} home`}
          className="grid size-8 shrink-0 place-items-center rounded-lg bg-brand-600 text-sm font-bold text-white"
        >
          <span aria-hidden="true">{(root?.site.name ?? "Academy").slice(0, 1)}</span>
        </Link>
        <Link
          to={homePath}
          className="flex min-w-0 items-center gap-1.5 text-sm font-semibold text-slate-800 hover:text-slate-950 dark:text-slate-200 dark:hover:text-white"
        >
          <ArrowLeftIcon className="size-4 shrink-0" />
          <span className="truncate">{course.title}</span>
        </Link>
        {progress && (
          <div className="ml-auto hidden items-center gap-2 sm:flex" title={`${progress.completed} of ${progress.total} lessons completed`}>
            <div
              role="progressbar"
              aria-label="Your progress in this course"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress.percent}
              aria-valuetext={`${progress.percent}% complete, ${progress.completed} of ${progress.total} lessons`}
              className="h-1.5 w-28 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
            >
              <div className="h-full rounded-full bg-brand-600 dark:bg-brand-400" style={{ width: `${progress.percent}%` }} />
            </div>
            <span className="text-xs font-semibold tabular-nums text-slate-700 dark:text-slate-300">{progress.percent}%</span>
          </div>
        )}
        <div className={`${progress ? "" : "ml-auto "}flex items-center gap-2`}>
          <Button
            type="button"
            onClick={sidebar.toggle}
            aria-pressed={!sidebar.hidden}
            variant="secondary" size="2xs" className="hidden lg:inline-flex"
          >
            Course contents
          </Button>
          <div className="hidden sm:block">
            <ThemeToggle />
          </div>
          {root?.viewer ? (
            <UserMenu viewer={root.viewer} />
          ) : (
            <ButtonLink to="/login" size="sm" className="shrink-0 whitespace-nowrap">
              Sign in
            </ButtonLink>
          )}
        </div>
      </div>
    </header>
  );
}
