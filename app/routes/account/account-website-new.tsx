import { data, Form, Link, redirect, useNavigation } from "react-router";
import { appServices, requireViewer } from "../../../server/context.ts";
import { hostingPlans, startWebsite } from "../../../server/websites/index.ts";
import { BackLink } from "../../components/back-link.tsx";
import { SubmitButton } from "../../components/form-controls.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { cardClass } from "../../components/ui/card.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/account-website-new";
import { TextField } from "../../components/ui/field.tsx";
import { z } from "zod";
import { replyProblem } from "../../../common/forms.ts";
import { formatMoney, intervalLabel } from "../../../common/format.ts";
import { attemptFor, readForm } from "../forms.server.ts";

const defaultService = "website-hosting";

export function loader({ request, context }: Route.LoaderArgs) {
  requireViewer(context);
  const { catalog } = context.get(appServices);
  const query = new URL(request.url).searchParams;
  const serviceId = query.get("service") ?? defaultService;
  const service = catalog.services.find((s) => s.id === serviceId);
  const plans = hostingPlans(catalog, serviceId);
  if (!service || plans.length === 0) throw data(null, { status: 404 });
  // The plan is chosen once, on the service page; without one, that is where it is chosen.
  const plan = plans.find((p) => p.id === query.get("plan"));
  if (!plan) throw redirect(`/service/${service.id}#plans`);
  return {
    service: { id: service.id, title: service.title },
    plan: { id: plan.id, name: plan.name, interval: plan.interval, price: plan.price },
    // Back to the one plan picker, showing this plan chosen.
    changePlan: `/service/${service.id}?plan=${encodeURIComponent(plan.id)}#plans`,
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Start hosting a website", description: "Tell us your website's domain; you see the price and dates before you pay." });

// The plan and domain are checked by startWebsite, for every caller; no plan sent reads as an unknown one.
const newWebsite = z.object({ planId: z.string().default(""), domain: z.string().default(""), serviceId: z.string().default(defaultService) });

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context);
  const { catalog, db } = context.get(appServices);
  const form = await readForm(request, newWebsite);
  if (!form.ok) return form.reply;
  const { planId, domain, serviceId } = form.value;
  const started = await attemptFor(form, () => startWebsite(db, catalog, { userId: viewer.id, serviceId, planId, domain }));
  if (!started.ok) return started.reply;
  throw redirect(`/account/services/websites/${started.value.id}/renew?plan=${encodeURIComponent(planId)}`);
}

export default function NewWebsite({ loaderData, actionData }: Route.ComponentProps) {
  const { service, plan, changePlan } = loaderData;
  const busy = useNavigation().state !== "idle";
  return (
    <section aria-labelledby="new-website-heading" className="max-w-2xl">
      <BackLink fallback={changePlan} label="Back to the plans" />
      <h2 id="new-website-heading" className="mt-4 text-xl font-semibold tracking-tight text-slate-950 dark:text-white">
        Start hosting a website
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {service.title}. Tell us the domain; you see the price and the dates of your first period before you pay.
      </p>
      <Form method="post" className="mt-6 space-y-6" noValidate>
        <input type="hidden" name="serviceId" value={service.id} />
        <input type="hidden" name="planId" value={plan.id} />
        {replyProblem(actionData) && <FormAlert>{replyProblem(actionData)}</FormAlert>}
        <div className={cardClass({ className: "flex items-center justify-between gap-4 p-4" })}>
          <p className="min-w-0">
            <span className="block text-sm text-slate-600 dark:text-slate-400">Your plan</span>
            <span className="block font-semibold text-slate-950 dark:text-white">{plan.name}</span>
            <span className="block text-sm text-slate-700 dark:text-slate-300">
              {formatMoney(plan.price)} {intervalLabel[plan.interval]}
            </span>
          </p>
          <Link to={changePlan} className="shrink-0 text-sm font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-300">
            Change<span className="sr-only"> plan</span>
          </Link>
        </div>
        <TextField
          label="Your website's domain"
          name="domain"
          required
          autoComplete="url"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={253}
          placeholder="shop.example.in"
          defaultValue={actionData?.values.domain}
          hint="The address people type, without https:// or a path. You keep the domain; we host the site."
        />
        <div className="sm:max-w-xs">
          <SubmitButton pending={busy}>{busy ? "Please wait…" : "Continue"}</SubmitButton>
        </div>
      </Form>
    </section>
  );
}
