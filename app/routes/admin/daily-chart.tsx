/**
 * A bar for each day, drawn on the server as SVG: no charting script reaches the browser. The
 * figures are also a table under a disclosure, for screen readers and for anyone who wants them.
 */
export function DailyChart({ title, days, value, format }: { title: string; days: { day: string }[]; value: (index: number) => number; format: (amount: number) => string }) {
  const values = days.map((_, index) => value(index));
  const highest = Math.max(0, ...values);
  const lowest = Math.min(0, ...values);
  const span = highest - lowest || 1;
  const width = 900;
  const height = 160;
  const step = width / Math.max(days.length, 1);
  const zero = (highest / span) * height;
  const total = values.reduce((sum, amount) => sum + amount, 0);
  return (
    <figure className="space-y-2">
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-semibold text-slate-950 dark:text-white">{title}</span>
        <span className="text-sm text-slate-600 dark:text-slate-400">
          {format(total)} over {days.length} days · highest day {format(highest)}
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" className="h-40 w-full text-brand-600 dark:text-brand-300" role="img" aria-label={`${title}: ${format(total)} over ${days.length} days`}>
        <line x1="0" x2={width} y1={zero} y2={zero} className="stroke-slate-300 dark:stroke-slate-700" strokeWidth="1" />
        {values.map((amount, index) => {
          const barHeight = (Math.abs(amount) / span) * height;
          return (
            <rect
              key={days[index]?.day}
              x={index * step + step * 0.15}
              width={step * 0.7}
              y={amount >= 0 ? zero - barHeight : zero}
              height={barHeight}
              className={amount >= 0 ? "fill-current" : "fill-red-500 dark:fill-red-400"}
            />
          );
        })}
      </svg>
      <div className="flex justify-between text-xs text-slate-600 dark:text-slate-400">
        <span>{days[0]?.day}</span>
        <span>{days.at(-1)?.day}</span>
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-brand-700 dark:text-brand-300">The figures by day</summary>
        <table className="mt-2 w-full max-w-sm text-left">
          <thead>
            <tr>
              <th scope="col" className="py-1 font-medium">
                Day
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                {title}
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((day, index) => (
              <tr key={day.day} className="border-t border-slate-200 dark:border-slate-800">
                <td className="py-1">{day.day}</td>
                <td className="py-1 text-right tabular-nums">{format(values[index] ?? 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
