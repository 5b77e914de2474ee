import { data } from "react-router";
import { appServices } from "../../../server/context.ts";
import { UserError } from "../../../server/errors.ts";
import { gstRegisterCsv, paymentsCsv } from "../../../server/staff/index.ts";
import type { Route } from "./+types/report-file";
import { actorFor, staffWith } from "./access.server.ts";

const reports = { "gst-register.csv": gstRegisterCsv, "payments.csv": paymentsCsv } as const;
const isReport = (name: string): name is keyof typeof reports => Object.hasOwn(reports, name);

/** A finance report for one month, streamed as CSV: `/admin/reports/gst-register.csv?month=2026-11`. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const member = await staffWith(context, request, "reports.view");
  if (!isReport(params.report)) throw data({ message: "There is no such report." }, { status: 404 });
  const { db, catalog } = context.get(appServices);
  try {
    const file = await reports[params.report]({ db, site: catalog.site }, actorFor(member, request), new URL(request.url).searchParams.get("month") ?? "");
    return new Response(file.body, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${file.filename}"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return new Response(error.message, { status: error.status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
}
