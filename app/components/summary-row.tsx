/** One line of an order summary: what and how much, the total in bold. Sits in a <dl>. */
export function SummaryRow({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-4 py-2 ${strong ? "text-base font-semibold text-slate-950 dark:text-white" : "text-sm text-slate-700 dark:text-slate-300"}`}>
      <dt>{label}</dt>
      <dd className="whitespace-nowrap tabular-nums">{value}</dd>
    </div>
  );
}
