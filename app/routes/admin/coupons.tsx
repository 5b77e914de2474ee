import { Form } from "react-router";
import { z } from "zod";
import { formatDay, parseRupees } from "../../../common/format.ts";
import { fieldState, replyFor } from "../../../common/forms.ts";
import { appServices } from "../../../server/context.ts";
import { createCoupon, disableCoupon, listCoupons, type StaffCoupon } from "../../../server/staff/index.ts";
import { ReplyAlert, SubmitButton } from "../../components/form-controls.tsx";
import { StatusBadge, type BadgeTone } from "../../components/status-badge.tsx";
import { cardClass } from "../../components/ui/card.tsx";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { Select, TextField } from "../../components/ui/field.tsx";
import { attemptFor, readForm, succeed } from "../forms.server.ts";
import type { Route } from "./+types/coupons";
import { useSubmittingIntent } from "../../lib/use-submitting-intent.ts";
import { backOfficeMeta } from "./meta.ts";
import { actorFor, staffWith } from "./access.server.ts";
import { PageHeading, Section } from "./page-heading.tsx";

const scopeWords = { courses: "courses", hosting: "website hosting", both: "courses and website hosting" } as const;

/** Where a coupon stands now, for its badge. */
function couponState(coupon: StaffCoupon, now: Date): { label: string; tone: BadgeTone } {
  if (coupon.disabledAt) return { label: "Off", tone: "neutral" };
  if (coupon.endsAt && now >= coupon.endsAt) return { label: "Expired", tone: "neutral" };
  if (coupon.startsAt && now < coupon.startsAt) return { label: "Not yet", tone: "info" };
  if (coupon.maxUses !== null && coupon.paidUses >= coupon.maxUses) return { label: "Used up", tone: "warning" };
  return { label: "On", tone: "success" };
}

/** Every coupon with its uses, and the form that makes one (finance and owners). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await staffWith(context, request, "coupons.manage");
  const now = new Date();
  const coupons = await listCoupons(context.get(appServices).db);
  return {
    coupons: coupons.map((coupon) => ({
      id: coupon.id,
      code: coupon.code,
      label: `${coupon.label} ${scopeWords[coupon.appliesTo]}`,
      state: couponState(coupon, now),
      window: [coupon.startsAt && `from ${formatDay(coupon.startsAt)}`, coupon.endsAt && `until ${formatDay(new Date(coupon.endsAt.getTime() - 1))}`].filter(Boolean).join(" ") || "No end date",
      uses: `${coupon.paidUses}${coupon.maxUses === null ? "" : ` of ${coupon.maxUses}`} paid ${coupon.paidUses === 1 && coupon.maxUses === null ? "use" : "uses"}, ${coupon.perPersonLimit} per person`,
      mayDisable: coupon.disabledAt === null,
    })),
  };
}

/** A day typed in a date field, as the moment it starts in India; `next` for the moment it ends. */
const indiaDay = (next: boolean) =>
  z
    .string()
    .default("")
    .refine((day) => day === "" || /^\d{4}-\d{2}-\d{2}$/.test(day), "Choose a day from the calendar.")
    .transform((day) => (day === "" ? null : new Date(new Date(`${day}T00:00:00+05:30`).getTime() + (next ? 86_400_000 : 0))));
const count = (message: string) =>
  z
    .string()
    .default("")
    .refine((text) => text.trim() === "" || /^\d{1,7}$/.test(text.trim()), message)
    .transform((text) => (text.trim() === "" ? null : Number(text.trim())));

const couponForm = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("create"),
      code: z.string().trim().min(1, "Type the code people will enter, such as DIWALI20."),
      kind: z.enum(["percent", "amount"], "Choose a percentage or an amount off."),
      appliesTo: z.enum(["courses", "hosting", "both"], "Choose what the coupon is for."),
      value: z.string().trim().min(1, "Say how much it takes off."),
      startsOn: indiaDay(false),
      endsOn: indiaDay(true),
      maxUses: count("Uses in all are a whole number, or empty for no limit."),
      perPersonLimit: count("Uses per person are a whole number."),
    }),
    z.object({ intent: z.literal("disable"), couponId: z.uuid("Choose a coupon.") }),
  ],
  "Choose what to do.",
);

/** Makes a coupon, or turns one off; each in the audit log. */
export async function action({ request, context }: Route.ActionArgs) {
  const member = await staffWith(context, request, "coupons.manage");
  const form = await readForm(request, couponForm);
  if (!form.ok) return form.reply;
  const { db } = context.get(appServices);
  const actor = actorFor(member, request);
  const value = form.value;
  const done = await attemptFor(form, async () => {
    if (value.intent === "disable") return disableCoupon(db, actor, value.couponId);
    // A percentage as typed; an amount in rupees, kept in paise.
    const amount = value.kind === "percent" ? (/^\d{1,3}$/.test(value.value) ? Number(value.value) : Number.NaN) : (parseRupees(value.value) ?? Number.NaN);
    const made = await createCoupon(db, actor, {
      code: value.code,
      kind: value.kind,
      appliesTo: value.appliesTo,
      value: amount,
      startsAt: value.startsOn,
      endsAt: value.endsOn,
      maxUses: value.maxUses,
      perPersonLimit: value.perPersonLimit ?? 1,
    });
    return `${made.code} is ready: buyers type it on a course's checkout page.`;
  });
  if (!done.ok) return done.reply;
  return succeed(form, done.value);
}

export const meta: Route.MetaFunction = () => backOfficeMeta("Coupons");

export default function CouponsPage({ loaderData: { coupons }, actionData }: Route.ComponentProps) {
  const sending = useSubmittingIntent();
  const made = replyFor(actionData, "create");
  return (
    <div className="space-y-8">
      <PageHeading
        title="Coupons"
        lead="Codes that take money off a course's or a hosting plan's price at checkout. The invoice shows the discount before GST; a coupon used up, expired or turned off is refused."
      />
      <Section id="coupons" title="Coupons" className="space-y-3">
        <ReplyAlert reply={replyFor(actionData, "disable")} />
        {coupons.length === 0 ? (
          <p className="text-slate-600 dark:text-slate-400">No coupons yet. Make one below.</p>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Coupons">
            {coupons.map((coupon) => (
              <li key={coupon.id} aria-label={coupon.code} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="font-medium text-slate-950 dark:text-white">
                    <span className="font-mono">{coupon.code}</span> · {coupon.label}
                  </p>
                  <p className="text-sm text-slate-600 dark:text-slate-400">
                    {coupon.window} · {coupon.uses}
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  <StatusBadge tone={coupon.state.tone}>{coupon.state.label}</StatusBadge>
                  {coupon.mayDisable && (
                    <ConfirmDialog
                      trigger="Turn off…"
                      triggerStyle={{ variant: "danger-outline", size: "sm" }}
                      title={`Turn ${coupon.code} off?`}
                      fields={{ intent: "disable", couponId: coupon.id }}
                      confirmLabel="Turn it off"
                      pendingLabel="Turning off…"
                      pending={sending("disable")}
                    >
                      Checkout refuses it from now on. Orders already made with it keep their price. It cannot be turned on again: make a new code instead.
                    </ConfirmDialog>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="new-coupon" title="Make a coupon">
        {/* A new form once a coupon is made (the list grows), so its fields start empty again. */}
        <Form key={coupons.length} method="post" className={cardClass({ className: "grid gap-4 p-6 sm:grid-cols-2" })}>
          <input type="hidden" name="intent" value="create" />
          <div className="sm:col-span-2">
            <ReplyAlert reply={made} />
          </div>
          <TextField label="Code" name="code" required maxLength={32} autoComplete="off" autoCapitalize="characters" placeholder="DIWALI20" {...fieldState(made, "code")} />
          <Select label="Kind" name="kind" defaultValue={made?.values.kind ?? "percent"}>
            <option value="percent">Percentage off</option>
            <option value="amount">Amount off, in rupees</option>
          </Select>
          <Select label="For" name="appliesTo" defaultValue={made?.values.appliesTo ?? "courses"}>
            <option value="courses">Courses</option>
            <option value="hosting">Website hosting</option>
            <option value="both">Courses and website hosting</option>
          </Select>
          <TextField label="How much off" name="value" required inputMode="decimal" autoComplete="off" placeholder="20" hint="A percentage (1 to 100), or rupees." {...fieldState(made, "value")} />
          <TextField label="Uses per person" name="perPersonLimit" inputMode="numeric" defaultValue="1" {...fieldState(made, "perPersonLimit")} />
          <TextField label="First day (optional)" name="startsOn" type="date" {...fieldState(made, "startsOn")} />
          <TextField label="Last day (optional)" name="endsOn" type="date" hint="Days in India's time." {...fieldState(made, "endsOn")} />
          <TextField label="Uses in all (optional)" name="maxUses" inputMode="numeric" hint="Paid orders; empty for no limit." {...fieldState(made, "maxUses")} />
          <div className="sm:col-span-2">
            <SubmitButton pending={sending("create")}>{sending("create") ? "Making…" : "Make the coupon"}</SubmitButton>
          </div>
        </Form>
      </Section>
    </div>
  );
}
