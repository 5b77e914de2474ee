/** What a course's button says for how far the learner is: nothing to continue at 0 %, nothing left at 100 %. */
export function courseActionLabel(percent: number): string {
  if (percent <= 0) return "Start course";
  return percent >= 100 ? "Open course" : "Continue";
}

/** How far through a course the learner is: a bar for the eye, a progressbar role and a sentence for everyone. */
export function CourseProgress({ title, percent, completed, total }: { title: string; percent: number; completed: number; total: number }) {
  const clamped = Math.min(100, Math.max(0, percent));
  return (
    <div>
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span className="text-slate-600 dark:text-slate-400">
          {completed} of {total} lessons completed
        </span>
        <span className="font-semibold tabular-nums text-slate-950 dark:text-white">{clamped}%</span>
      </div>
      <div
        role="progressbar"
        aria-label={`${title}: progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={clamped}
        aria-valuetext={`${clamped}% complete, ${completed} of ${total} lessons`}
        className="mt-2 h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
      >
        <div className="h-full rounded-full bg-brand-600 transition-[width] dark:bg-brand-400" style={{ width: `${clamped}%` }} />
      </div>
    </div>
  );
}
