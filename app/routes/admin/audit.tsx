import { formatMoment } from "../../../common/format.ts";
import { appServices } from "../../../server/context.ts";
import { auditActions, listAudit } from "../../../server/staff/index.ts";
import { Select, TextField } from "../../components/ui/field.tsx";
import type { Route } from "./+types/audit";
import { backOfficeMeta } from "./meta.ts";
import { OlderLink } from "./older-link.tsx";
import { staffWith } from "./access.server.ts";
import { numberCursorIn } from "./cursor.server.ts";
import { PageHeading } from "./page-heading.tsx";
import { Choices, FilterForm } from "./filter-form.tsx";

/** The audit log, newest first, filtered by what was done and to which record; it can only be read. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await staffWith(context, request, "audit.view");
  const { db } = context.get(appServices);
  const params = new URL(request.url).searchParams;
  const filter = { action: params.get("action") || undefined, subjectId: params.get("record")?.trim() || undefined };
  const [page, actions] = await Promise.all([listAudit(db, { ...filter, before: numberCursorIn(params) }), auditActions(db)]);
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
      <PageHeading title="Audit log" lead="Every change made in the back office or with the staff command, as it was made. Entries cannot be changed or deleted." />
      <FilterForm clear={Boolean(filter.action || filter.record) && "/admin/audit"}>
        <Select label="What" name="action" defaultValue={filter.action}>
          <Choices any="Every action" choices={actions.map((action) => [action, action] as const)} />
        </Select>
        <TextField label="Record id" name="record" defaultValue={filter.record} />
      </FilterForm>
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
