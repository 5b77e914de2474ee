import { useState } from "react";
import { data } from "react-router";
import { appServices } from "../../../server/context.ts";
import { hostingPlans } from "../../../server/websites/index.ts";
import { BackLink } from "../../components/back-link.tsx";
import { CheckList } from "../../components/check-list.tsx";
import { hostingPlanForm, HostingPlanPicker } from "../../components/hosting-plan-picker.tsx";
import { MailIcon, ServiceIcon } from "../../components/icons.tsx";
import { Container, Prose } from "../../components/page-intro.tsx";
import { formatMoney, intervalLabel } from "../../../common/format.ts";
import { chosenPlan, openingChoice, planTiers } from "../../../common/hosting-plans.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/service";
import { Button, buttonClass } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";
import { StickyActionBar } from "../../components/ui/sticky-action-bar.tsx";

export function loader({ params, request, context }: Route.LoaderArgs) {
  const { catalog } = context.get(appServices);
  const service = catalog.services.find((s) => s.id === params.serviceId);
  if (!service) throw data(null, { status: 404 });
  // Monthly and yearly plans are bought here, by tier; a one-time plan is only described.
  const tiers = planTiers(hostingPlans(catalog, service.id).map(({ id, name, tier, interval, price, features }) => ({ id, name, tier, interval, price, features })));
  const query = new URL(request.url).searchParams;
  return {
    service,
    tiers,
    oneTimePlans: service.plans.filter((plan) => plan.interval === "once"),
    // Where "Change" on the new-website page comes back to, or the no-script Monthly/Yearly toggle.
    opening: openingChoice(tiers, { plan: query.get("plan"), billing: query.get("billing") }),
    email: catalog.site.email,
    taxMode: catalog.site.tax.mode,
  };
}

export const meta: Route.MetaFunction = (args) =>
  args.loaderData
    ? pageMeta(args, { title: args.loaderData.service.title, description: args.loaderData.service.summary })
    : [];

type ServiceData = Route.ComponentProps["loaderData"];

export default function ServicePage({ loaderData }: Route.ComponentProps) {
  const { service, opening } = loaderData;
  // A new service, or a plan asked for again (?plan=, ?billing=), starts the picker afresh.
  return <ServiceView key={`${service.id}/${opening.tier}/${opening.billing}`} {...loaderData} />;
}

function ServiceView({ service, tiers, oneTimePlans, opening, email, taxMode }: ServiceData) {
  const [choice, setChoice] = useState(opening);
  const chosen = chosenPlan(tiers, choice);
  const enquiry = `mailto:${email}?subject=${encodeURIComponent(`Enquiry: ${service.title}`)}`;
  const taxNote = taxMode === "inclusive" ? "Prices include GST." : "GST is added at checkout.";
  return (
    <div>
      <section className="border-b border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/50">
        <Container className="py-8 sm:py-14">
          <BackLink fallback="/services" label="Back to services" />
          <div className="mt-6 flex items-start gap-4">
            <span className="hidden size-12 shrink-0 place-items-center rounded-xl bg-brand-100 text-brand-700 sm:grid dark:bg-brand-900 dark:text-brand-200">
              <ServiceIcon name={service.icon} className="size-7" />
            </span>
            <div>
              <h1 className="text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl dark:text-white">{service.title}</h1>
              <p className="mt-3 max-w-3xl leading-7 text-slate-600 sm:text-lg sm:leading-8 dark:text-slate-300">{service.summary}</p>
              {service.startingPrice && (
                <p className="mt-4 font-semibold text-slate-950 dark:text-white">
                  Projects from {formatMoney(service.startingPrice)}
                </p>
              )}
            </div>
          </div>
        </Container>
      </section>

      <Container className="grid gap-12 pt-6 pb-12 sm:pt-12 lg:grid-cols-[1fr_20rem]">
        <div className="min-w-0">
          {tiers.length > 0 && (
            <section aria-labelledby="plans-heading" id="plans" className="mb-12">
              <h2 id="plans-heading" className="text-xl font-bold text-slate-950 sm:text-2xl dark:text-white">
                Choose a plan
              </h2>
              <HostingPlanPicker
                serviceId={service.id}
                tiers={tiers}
                openingTier={opening.tier}
                choice={choice}
                onChoose={setChoice}
                togglePath={`/service/${service.id}#plans`}
              />
              <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
                {taxNote} Pay for a month or a year at a time; we remind you before each renewal, and you can let a plan run
                out whenever you like.
              </p>
            </section>
          )}

          <Prose html={service.descriptionHtml} />

          <section aria-labelledby="included" className="mt-12">
            <h2 id="included" className="text-2xl font-bold text-slate-950 dark:text-white">
              What's included
            </h2>
            <CheckList items={service.features} className="mt-5 grid gap-3 sm:grid-cols-2" />
          </section>

          {oneTimePlans.length > 0 && (
            <section aria-labelledby="one-time-plans" className="mt-12">
              <h2 id="one-time-plans" className="text-2xl font-bold text-slate-950 dark:text-white">
                Packages
              </h2>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{taxNote} Write to us to start one.</p>
              <ul className="mt-5 grid gap-4 sm:grid-cols-2">
                {oneTimePlans.map((plan) => (
                  <li key={plan.id} className={cardClass({ className: "flex flex-col p-6" })}>
                    <h3 className="font-semibold text-slate-950 dark:text-white">{plan.name}</h3>
                    <p className="mt-2">
                      <span className="text-2xl font-bold text-slate-950 dark:text-white">{formatMoney(plan.price)}</span>{" "}
                      <span className="text-sm text-slate-600 dark:text-slate-400">{intervalLabel[plan.interval]}</span>
                    </p>
                    <CheckList small items={plan.features} className="mt-4 flex-1 space-y-2" />
                  </li>
                ))}
              </ul>
            </section>
          )}

          {service.process.length > 0 && (
            <section aria-labelledby="process" className="mt-12">
              <h2 id="process" className="text-2xl font-bold text-slate-950 dark:text-white">
                How we work
              </h2>
              <ol className="mt-5 space-y-4">
                {service.process.map((step, i) => (
                  <li key={step.title} className="flex gap-4">
                    <span className="grid size-8 shrink-0 place-items-center rounded-full bg-brand-600 text-sm font-bold text-white">
                      {i + 1}
                    </span>
                    <div>
                      <h3 className="font-semibold text-slate-950 dark:text-white">{step.title}</h3>
                      <p className="mt-1 text-slate-600 dark:text-slate-400">{step.text}</p>
                    </div>
                  </li>
                ))}
              </ol>
            </section>
          )}
        </div>

        <aside aria-label="Get in touch" className="lg:sticky lg:top-24 lg:self-start">
          <div className={cardClass({ raised: true, className: "p-6" })}>
            <h2 className="font-semibold text-slate-950 dark:text-white">Talk to us</h2>
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
              Tell us about your project and we will reply within one business day with next steps.
            </p>
            <a
              href={enquiry}
              className={buttonClass({ size: "lg", className: "mt-5 flex items-center justify-center gap-2" })}
            >
              <MailIcon className="size-4" /> Send an enquiry
            </a>
            <p className="mt-3 text-center text-xs text-slate-600 dark:text-slate-400">{email}</p>
          </div>
        </aside>
      </Container>
      {chosen && (
        <StickyActionBar
          label="Your plan"
          price={formatMoney(chosen.price)}
          per={intervalLabel[chosen.interval]}
          note={`${choice.tier} · ${taxMode === "inclusive" ? "includes GST" : "plus GST"}`}
          action={
            <Button type="submit" form={hostingPlanForm} size="lg">
              Start hosting
            </Button>
          }
        />
      )}
    </div>
  );
}
