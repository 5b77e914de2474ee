import { Form } from "react-router";
import type { Route } from "./+types/reports";
import { Button } from "../../components/ui/button.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { backOfficeMeta } from "./meta.ts";
import { staffWith } from "./access.server.ts";
import { PageHeading } from "./page-heading.tsx";

/** The month before `now` in India, "2026-10": the one an accountant files for. */
function lastMonth(now: Date): string {
  const [year, month] = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Kolkata", year: "numeric", month: "2-digit" }).format(now).split("-").map(Number) as [number, number];
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, "0")}`;
}

/** Finance's downloads: the GST sales register and the payments of a month. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await staffWith(context, request, "reports.view");
  return { month: lastMonth(new Date()) };
}

export const meta: Route.MetaFunction = () => backOfficeMeta("Reports");

const reports = [
  {
    file: "gst-register.csv",
    title: "GST sales register",
    download: "Download the GST sales register (CSV)",
    text: "Every tax invoice issued in the month and every credit note, as negative rows: invoice number and date, B2B or B2C, the buyer's GSTIN and state, place of supply, taxable value, CGST, SGST, IGST and total, matching the invoices to the paisa. What GSTR-1 is filed from.",
  },
  {
    file: "payments.csv",
    title: "Payments",
    download: "Download the payments (CSV)",
    text: "Every payment attempt the provider reported in the month, with its order number, method, status, amount and the amount refunded. No names or e-mails.",
  },
];

export default function ReportsPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-8">
      <PageHeading title="Reports" lead="Downloads for the accountant, a calendar month at a time (Indian time). Each download is written to the audit log." />
      {reports.map((report) => (
        <section key={report.file} aria-labelledby={`${report.file}-heading`} className="space-y-3">
          <h2 id={`${report.file}-heading`} className="text-lg font-semibold text-slate-950 dark:text-white">
            {report.title}
          </h2>
          <p className="max-w-3xl text-slate-600 dark:text-slate-400">{report.text}</p>
          {/* A plain GET of the file: the browser downloads it, with or without JavaScript. */}
          <Form method="get" action={`/admin/reports/${report.file}`} reloadDocument className="flex flex-col gap-4 sm:flex-row sm:items-end">
            <TextField label="Month" name="month" type="month" required defaultValue={loaderData.month} className="sm:w-56" />
            <Button type="submit" variant="secondary">
              {report.download}
            </Button>
          </Form>
        </section>
      ))}
    </div>
  );
}
