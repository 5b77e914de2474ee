import { data, Form } from "react-router";
import { z } from "zod";
import { formatDay, formatMoment, formatOrderNumber, formatPaise } from "../../../common/format.ts";
import { customerActions, rolesAllow, staffReasonLength, staffRoleLabels } from "../../../common/staff.ts";
import { replyFor } from "../../../common/forms.ts";
import { appServices } from "../../../server/context.ts";
import { actForCustomer, customerOverview, grantCourseToCustomer, revokeCustomerSession } from "../../../server/staff/index.ts";
import { describeDevice } from "../../lib/device.ts";
import { ReplyAlert } from "../../components/form-controls.tsx";
import { StatusBadge, WebsiteStatusBadge } from "../../components/status-badge.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { Select, TextArea } from "../../components/ui/field.tsx";
import { attemptFor, readForm, succeed } from "../forms.server.ts";
import type { Route } from "./+types/customer";
import { useSubmittingIntent } from "../../lib/use-submitting-intent.ts";
import { backOfficeMeta } from "./meta.ts";
import { actorFor, mayAlso, staffWith } from "./access.server.ts";
import { Fact } from "./fact.tsx";
import { PageHeading, Section } from "./page-heading.tsx";
import { OrderRecords, RecordList } from "./record-list.tsx";

const methodLabels: Record<string, string> = { credential: "E-mail and password", google: "Google" };

/** One customer as support sees them: who they are, how they sign in, what they bought. Never their notes. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const member = await staffWith(context, request, "customers.view");
  const { db, catalog } = context.get(appServices);
  const customer = await customerOverview(db, params.customerId, new Date());
  if (!customer) throw data({ message: "No customer has this id: the account may have been deleted." }, { status: 404 });
  return {
    ...customer,
    createdAt: customer.createdAt.toISOString(),
    signInLockedUntil: customer.signInLockedUntil?.toISOString() ?? null,
    sessions: customer.sessions.map((signedIn) => ({ id: signedIn.id, device: describeDevice(signedIn.userAgent), createdAt: signedIn.createdAt.toISOString(), lastActiveAt: signedIn.lastActiveAt.toISOString() })),
    roles: customer.roles.map((role) => staffRoleLabels[role]),
    signInMethods: customer.signInMethods.map((method) => methodLabels[method] ?? method),
    orders: customer.orders.map((order) => ({
      ...order,
      number: formatOrderNumber(order.number),
      amount: formatPaise(order.amount),
      createdAt: order.createdAt.toISOString(),
      paidAt: order.paidAt?.toISOString() ?? null,
    })),
    websites: customer.websites.map((site) => ({ ...site, expiresAt: site.expiresAt?.toISOString() ?? null })),
    courses: customer.courses.map((course) => ({
      ...course,
      title: catalog.courses.find((known) => known.id === course.courseId)?.title ?? course.courseId,
      enrolledAt: course.enrolledAt.toISOString(),
      certificate: course.certificate && { ...course.certificate, issuedAt: course.certificate.issuedAt.toISOString() },
    })),
    reviews: customer.reviews.map((review) => ({ ...review, course: catalog.courses.find((known) => known.id === review.courseId)?.title ?? review.courseId })),
    mayAssist: rolesAllow(member.roles, "customers.assist"),
    mayGrant: rolesAllow(member.roles, "customers.grant"),
    // Courses they may be given: every course in the catalogue they cannot open now.
    grantable: catalog.courses.filter((course) => !customer.enrolments.activeCourseIds.includes(course.id)).map((course) => ({ id: course.id, title: course.title })),
    grantKey: crypto.randomUUID(),
    mayOpenOrders: rolesAllow(member.roles, "orders.view"),
  };
}

const assistForm = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.enum(customerActions) }),
    z.object({ intent: z.literal("revoke-session"), sessionId: z.string().min(1, "Choose the sign-in to end.") }),
    z.object({
      intent: z.literal("grant-course"),
      courseId: z.string().min(1, "Choose the course to give."),
      reason: z
        .string()
        .trim()
        .min(staffReasonLength.min, `Say why they get the course without paying, in at least ${staffReasonLength.min} characters.`)
        .max(staffReasonLength.max, `Keep the reason to ${staffReasonLength.max} characters.`),
      idempotencyKey: z.string(),
    }),
  ],
  "Choose what to do for this customer.",
);

/** Support's help for a stuck customer: a new confirmation or reset mail, unlocking their sign-in, signing them out of one device or everywhere, or a course without payment. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const member = await staffWith(context, request, "customers.assist");
  const form = await readForm(request, assistForm);
  if (!form.ok) return form.reply;
  const value = form.value;
  if (value.intent === "grant-course") mayAlso(member, "customers.grant");
  const { db, auth, shop } = context.get(appServices);
  const actor = actorFor(member, request);
  const done = await attemptFor(form, () => {
    if (value.intent === "grant-course") return grantCourseToCustomer(shop, actor, params.customerId, value);
    if (value.intent === "revoke-session") return revokeCustomerSession(db, actor, params.customerId, value.sessionId);
    return actForCustomer({ db, auth }, actor, params.customerId, value.intent);
  });
  if (!done.ok) return done.reply;
  return succeed(form, done.value);
}

export const meta: Route.MetaFunction = ({ loaderData: customer }) => backOfficeMeta(customer ? `${customer.name} · Customers` : "Customer");

export default function CustomerPage({ loaderData: customer, actionData }: Route.ComponentProps) {
  const sending = useSubmittingIntent();
  const answer = replyFor(actionData, ...customerActions, "revoke-session");
  const granted = replyFor(actionData, "grant-course");
  return (
    <div className="space-y-8">
      <PageHeading title={customer.name} back={{ to: "/admin/customers", label: "Customers" }}>
        <p className="mt-1 break-all text-slate-600 dark:text-slate-300">{customer.email}</p>
        <div className="mt-3 flex flex-wrap gap-2">
          <Badge tone={customer.emailVerified ? "success" : "warning"}>{customer.emailVerified ? "E-mail verified" : "E-mail not verified"}</Badge>
          {customer.twoFactorEnabled && <Badge>Two-factor sign-in on</Badge>}
          {customer.roles.map((role) => (
            <Badge key={role}>Staff: {role}</Badge>
          ))}
        </div>
      </PageHeading>

      <dl className={cardClass({ className: "grid gap-4 p-6 sm:grid-cols-2" })}>
        <Fact term="Joined">{formatDay(customer.createdAt)}</Fact>
        <Fact term="Signs in with">{customer.signInMethods.length > 0 ? customer.signInMethods.join(", ") : "Nothing yet"}</Fact>
        <Fact term="Signed-in devices and CLIs">{customer.activeSessions}</Fact>
        <Fact term="Sign-in">{customer.signInLockedUntil ? `Locked after too many attempts, until ${formatMoment(customer.signInLockedUntil)}` : "Not locked"}</Fact>
        <Fact term="Courses">
          {customer.enrolments.active} open{customer.enrolments.revoked > 0 && `, ${customer.enrolments.revoked} refunded`}
        </Fact>
      </dl>

      {customer.mayAssist && (
        <Section id="help" title="Help them">
          <ReplyAlert reply={answer} />
          <div className="flex flex-wrap gap-3">
            {!customer.emailVerified && <IntentButton intent="resend-verification" label="Send a new confirmation link" pending={sending("resend-verification")} />}
            <IntentButton intent="send-password-reset" label="Send a password reset link" pending={sending("send-password-reset")} />
            {customer.signInLockedUntil && <IntentButton intent="unlock-sign-in" label="Let them sign in again now" pending={sending("unlock-sign-in")} />}
            <ConfirmDialog
              trigger="Sign them out everywhere"
              triggerStyle={{ variant: "secondary" }}
              title={`Sign ${customer.name} out everywhere?`}
              fields={{ intent: "revoke-sessions" }}
              confirmLabel="Sign out everywhere"
              pendingLabel="Signing out…"
              pending={sending("revoke-sessions")}
            >
              Every browser and CLI signed in to this account is signed out at its next request; they sign in again with their password or Google. It is written to the audit log.
            </ConfirmDialog>
          </div>
        </Section>
      )}

      <RecordList
        title="Signed in now"
        empty="Not signed in anywhere."
        records={customer.sessions.map((signedIn) => ({
          id: signedIn.id,
          title: signedIn.device,
          detail: `Signed in ${formatDay(signedIn.createdAt)} · last used ${formatMoment(signedIn.lastActiveAt)}`,
          status: customer.mayAssist && (
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value="revoke-session" />
              <input type="hidden" name="sessionId" value={signedIn.id} />
              <Button type="submit" variant="secondary" size="sm" disabled={sending("revoke-session")} aria-label={`Sign out of ${signedIn.device}, signed in ${formatDay(signedIn.createdAt)}`}>
                Sign out
              </Button>
            </Form>
          ),
        }))}
      />

      {customer.mayGrant && customer.grantable.length > 0 && (
        <Section id="grant" title="Give a course">
          <p className="max-w-3xl text-slate-600 dark:text-slate-400">
            The course opens in their account at once, as if bought, through an order of ₹0: no payment, no tax invoice, nothing to refund. The reason is kept in the audit log.
          </p>
          <ReplyAlert reply={granted} />
          <Form method="post" className="grid max-w-xl gap-4">
            <input type="hidden" name="intent" value="grant-course" />
            <input type="hidden" name="idempotencyKey" value={customer.grantKey} />
            <Select label="Course" name="courseId" required defaultValue="">
              <option value="" disabled>
                Choose a course
              </option>
              {customer.grantable.map((course) => (
                <option key={course.id} value={course.id}>
                  {course.title}
                </option>
              ))}
            </Select>
            <TextArea label="Why (kept in the audit log)" name="reason" required minLength={staffReasonLength.min} maxLength={staffReasonLength.max} rows={2} />
            <div>
              <Button type="submit" variant="secondary" disabled={sending("grant-course")}>
                {sending("grant-course") ? "Giving…" : "Give the course"}
              </Button>
            </div>
          </Form>
        </Section>
      )}

      <OrderRecords orders={customer.orders} mayOpen={customer.mayOpenOrders} />
      <RecordList
        title="Courses"
        empty="No courses."
        records={customer.courses.map((course) => ({
          id: course.courseId,
          title: course.title,
          detail: `${course.progressPercent}% done at the furthest · since ${formatDay(course.enrolledAt)}${
            course.certificate ? ` · certificate ${course.certificate.id} ${course.certificate.revoked ? "revoked" : `issued ${formatDay(course.certificate.issuedAt)}`}` : ""
          }`,
          status: course.status === "active" ? <StatusBadge tone="success">Open</StatusBadge> : <StatusBadge tone="neutral">Refunded</StatusBadge>,
        }))}
      />
      <RecordList
        title="Reviews"
        empty="No reviews."
        records={customer.reviews.map((review) => ({
          id: review.id,
          title: review.course,
          detail: `${review.rating} out of 5 stars`,
          status: review.hidden ? <StatusBadge tone="warning">Hidden</StatusBadge> : <StatusBadge tone="success">Shown</StatusBadge>,
        }))}
      />
      <RecordList
        title="Websites"
        empty="No websites."
        records={customer.websites.map((site) => ({
          id: site.id,
          title: <span className="break-all">{site.domain}</span>,
          detail: site.expiresAt ? `Paid until ${formatDay(site.expiresAt)}` : "Not paid yet",
          status: <WebsiteStatusBadge state={site.state} />,
        }))}
      />
    </div>
  );
}

/** A form of one button that posts `intent`. */
function IntentButton({ intent, label, pending }: { intent: string; label: string; pending: boolean }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <Button type="submit" variant="secondary" disabled={pending}>
        {pending ? "Sending…" : label}
      </Button>
    </Form>
  );
}
