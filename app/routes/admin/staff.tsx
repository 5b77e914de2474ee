import { Form, useNavigation } from "react-router";
import { z } from "zod";
import { replyFor } from "../../../common/forms.ts";
import { staffRoleDescriptions, staffRoleLabels, staffRoles } from "../../../common/staff.ts";
import { appServices } from "../../../server/context.ts";
import { grantRole, listStaff, revokeRole } from "../../../server/staff/index.ts";
import { ReplyAlert } from "../../components/form-controls.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { Select, TextField } from "../../components/ui/field.tsx";
import { attemptFor, readForm, succeed } from "../forms.server.ts";
import type { Route } from "./+types/staff";
import { backOfficeMeta } from "./meta.ts";
import { actorFor, staffWith } from "./access.server.ts";
import { PageHeading } from "./page-heading.tsx";

const staffForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("grant"), email: z.string().trim().email("Enter the e-mail of the person's Academy account."), role: z.enum(staffRoles, "Choose a role.") }),
  z.object({ intent: z.literal("revoke"), email: z.string(), role: z.enum(staffRoles) }),
]);

/** Owners see who holds which role, grant roles to existing accounts and take them away. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = await staffWith(context, request, "staff.manage");
  return { staff: await listStaff(context.get(appServices).db), you: member.id };
}

export const meta: Route.MetaFunction = () => backOfficeMeta("Staff");

export async function action({ request, context }: Route.ActionArgs) {
  const member = await staffWith(context, request, "staff.manage");
  const form = await readForm(request, staffForm);
  if (!form.ok) return form.reply;
  const { email, role } = form.value;
  const granting = form.value.intent === "grant";
  const change = granting ? grantRole : revokeRole;
  const done = await attemptFor(form, () => change(context.get(appServices).db, actorFor(member, request), email, role));
  if (!done.ok) return done.reply;
  const label = staffRoleLabels[role].toLowerCase();
  if (!done.value.changed) return succeed(form, granting ? `${email} is ${label} already.` : `${email} was not ${label}.`);
  return succeed(form, granting ? `${email} is now ${label}. They set up two-factor sign-in when they first open the back office.` : `${email} is no longer ${label}.`);
}

export default function StaffPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const granted = replyFor(actionData, "grant");
  const revoked = replyFor(actionData, "revoke");
  return (
    <div className="space-y-8">
      <PageHeading title="Staff" lead="Who may open the back office, and what each may do there. A role taken away ends at the person's next request." />
      <ReplyAlert reply={revoked} />
      <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Staff members">
        {loaderData.staff.map((person) => (
          <li key={person.id} className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
            <div>
              <p className="font-medium text-slate-950 dark:text-white">
                {person.name} {person.id === loaderData.you && <span className="text-sm font-normal text-slate-600 dark:text-slate-400">(you)</span>}
              </p>
              <p className="text-sm text-slate-600 dark:text-slate-400">{person.email}</p>
              <p className="mt-1 text-sm">
                <Badge tone={person.twoFactorEnabled ? "success" : "warning"}>{person.twoFactorEnabled ? "Two-factor on" : "Two-factor not set up yet"}</Badge>
              </p>
            </div>
            <ul className="flex flex-wrap gap-2" aria-label={`Roles of ${person.name}`}>
              {person.roles.map((role) => (
                <li key={role}>
                  <ConfirmDialog
                    trigger={`${staffRoleLabels[role]} ✕`}
                    triggerStyle={{ variant: "secondary", size: "xs" }}
                    title={`Take ${staffRoleLabels[role].toLowerCase()} away from ${person.name}?`}
                    fields={{ intent: "revoke", email: person.email, role }}
                    confirmLabel={`Remove ${staffRoleLabels[role].toLowerCase()}`}
                    pendingLabel="Removing…"
                    pending={busy && navigation.formData?.get("intent") === "revoke"}
                  >
                    They lose what the role allows ({staffRoleDescriptions[role].toLowerCase()}) from their next request. The change is written to the audit log.
                  </ConfirmDialog>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <Form method="post" className={cardClass({ className: "max-w-xl space-y-4 p-6" })}>
        <h2 className="text-lg font-semibold text-slate-950 dark:text-white">Grant a role</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">The person signs up on the site first, with the e-mail you enter here.</p>
        <input type="hidden" name="intent" value="grant" />
        <ReplyAlert reply={granted} />
        <TextField label="E-mail" name="email" type="email" autoComplete="off" required defaultValue={granted && !granted.ok ? granted.values.email : ""} error={granted?.fieldErrors.email} />
        <Select label="Role" name="role" required defaultValue={granted && !granted.ok ? granted.values.role : "support"} error={granted?.fieldErrors.role}>
          {staffRoles.map((role) => (
            <option key={role} value={role}>
              {staffRoleLabels[role]} — {staffRoleDescriptions[role]}
            </option>
          ))}
        </Select>
        <Button type="submit" disabled={busy}>
          Grant role
        </Button>
      </Form>
    </div>
  );
}
