import { Form } from "react-router";
import { formatMoment } from "../../../common/format.ts";
import { appServices } from "../../../server/context.ts";
import { auditActions, listAudit } from "../../../server/staff/index.ts";
import { Button } from "../../components/ui/button.tsx";
import { Select, TextField } from "../../components/ui/field.tsx";
import type { Route } from "./+types/audit";
import { backOfficeMeta } from "./meta.ts";
import { OlderLink } from "./older-link.tsx";
import { staffWith } from "./access.server.ts";

/** The audit log, newest first, filtered by what was done and to which record; it can only be read. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await staffWith(context, request, "audit.view");
  const { db } = context.get(appServices);
  const params = new URL(request.url).searchParams;
  const filter = { action: params.get("action") || undefined, subjectId: params.get("record")?.trim() || undefined };
  const before = Number(params.get("before"));
  const [page, actions] = await Promise.all([listAudit(db, { ...filter, before: Number.isSafeInteger(before) && before > 0 ? before : undefined }), auditActions(db)]);
  return {
    filter: { action: filter.action ?? "", record: filter.subjectId ?? "" },
    actions,
    next: page.next,
    entries: page.entries.map((entry) => ({
      id: entry.id,
      at: entry.at.toISOString(),
      actor: entry.actor,
      roles: entry.actorRoles.join(", "),
      action: entry.action,
      subject: `${entry.subjectKind} ${entry.subjectId}`,
      before: entry.before === null ? null : JSON.stringify(entry.before),
      after: entry.after === null ? null : JSON.stringify(entry.after),
      reason: entry.reason,
      address: entry.address,
    })),
  };
}

export const meta: Route.MetaFunction = () => backOfficeMeta("Audit log");

export default function AuditPage({ loaderData }: Route.ComponentProps) {
  const { entries, filter, actions, next } = loaderData;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-950 dark:text-white">Audit log</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-300">Every change made in the back office or with the staff command, as it was made. Entries cannot be changed or deleted.</p>
      </div>
      <Form method="get" className="flex flex-col gap-4 sm:flex-row sm:items-end">
        <Select label="What" name="action" defaultValue={filter.action}>
          <option value="">Every action</option>
          {actions.map((action) => (
            <option key={action} value={action}>
              {action}
            </option>
          ))}
        </Select>
        <TextField label="Record id" name="record" defaultValue={filter.record} />
        <Button type="submit" variant="secondary">
          Filter
        </Button>
      </Form>
      {entries.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-400">{filter.action || filter.record ? "No entries match these filters." : "Nothing has been changed yet."}</p>
      ) : (
        <ol className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Audit entries">
          {entries.map((entry) => (
            <li key={entry.id} className="py-4 text-sm">
              <p className="font-medium text-slate-950 dark:text-white">
                {entry.action} · <span className="font-mono text-xs">{entry.subject}</span>
              </p>
              <p className="text-slate-600 dark:text-slate-400">
                <time dateTime={entry.at}>{formatMoment(entry.at)}</time> · {entry.actor}
                {entry.roles && ` (${entry.roles})`}
                {entry.address && ` · from ${entry.address}`}
              </p>
              {entry.reason && <p className="mt-1 text-slate-800 dark:text-slate-200">Reason: {entry.reason}</p>}
              {(entry.before || entry.after) && (
                <p className="mt-1 break-all font-mono text-xs text-slate-700 dark:text-slate-300">
                  {entry.before ?? "—"} → {entry.after ?? "—"}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      <OlderLink path="/admin/audit" filter={filter} next={next}>Older entries</OlderLink>
    </div>
  );
}
