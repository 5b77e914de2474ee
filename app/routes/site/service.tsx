import { data } from "react-router";
import { appServices } from "../../../server/context.ts";
import { BackLink } from "../../components/back-link.tsx";
import { CheckList } from "../../components/check-list.tsx";
import { MailIcon, ServiceIcon } from "../../components/icons.tsx";
import { Container, Prose } from "../../components/page-intro.tsx";
import { formatMoney, intervalLabel } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/service";
import { buttonClass, ButtonLink } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";

export function loader({ params, context }: Route.LoaderArgs) {
  const { catalog } = context.get(appServices);
  const service = catalog.services.find((s) => s.id === params.serviceId);
  if (!service) throw data(null, { status: 404 });
  return { service, email: catalog.site.email, taxMode: catalog.site.tax.mode };
}

export const meta: Route.MetaFunction = (args) =>
  args.loaderData
    ? pageMeta(args, { title: args.loaderData.service.title, description: args.loaderData.service.summary })
    : [];

export default function ServicePage({ loaderData }: Route.ComponentProps) {
  const { service, email, taxMode } = loaderData;
  const enquiry = `mailto:${email}?subject=${encodeURIComponent(`Enquiry: ${service.title}`)}`;
  return (
    <>
      <section className="border-b border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/50">
        <Container className="py-10 sm:py-14">
          <BackLink fallback="/services" label="Back to services" />
          <div className="mt-6 flex items-start gap-4">
            <span className="hidden size-12 shrink-0 place-items-center rounded-xl bg-brand-100 text-brand-700 sm:grid dark:bg-brand-900 dark:text-brand-200">
              <ServiceIcon name={service.icon} className="size-7" />
            </span>
            <div>
              <h1 className="text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl dark:text-white">{service.title}</h1>
              <p className="mt-3 max-w-3xl text-lg leading-8 text-slate-600 dark:text-slate-300">{service.summary}</p>
              {service.startingPrice && (
                <p className="mt-4 font-semibold text-slate-950 dark:text-white">
                  Projects from {formatMoney(service.startingPrice)}
                </p>
              )}
            </div>
          </div>
        </Container>
      </section>

      <Container className="grid gap-12 py-12 lg:grid-cols-[1fr_20rem]">
        <div className="min-w-0">
          <Prose html={service.descriptionHtml} />

          <section aria-labelledby="included" className="mt-12">
            <h2 id="included" className="text-2xl font-bold text-slate-950 dark:text-white">
              What's included
            </h2>
            <CheckList items={service.features} className="mt-5 grid gap-3 sm:grid-cols-2" />
          </section>

          {service.plans.length > 0 && (
            <section aria-labelledby="plans" className="mt-12">
              <h2 id="plans" className="text-2xl font-bold text-slate-950 dark:text-white">
                Plans
              </h2>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
                {taxMode === "inclusive" ? "Prices include GST." : "GST is added at checkout."} Pay for a month or a year at
                a time; we remind you before each renewal, and you can let a plan run out whenever you like.
              </p>
              <ul className="mt-5 grid gap-4 sm:grid-cols-2">
                {service.plans.map((plan) => (
                  <li key={plan.id} className={cardClass({ className: "flex flex-col p-6" })}>
                    <h3 className="font-semibold text-slate-950 dark:text-white">{plan.name}</h3>
                    <p className="mt-2">
                      <span className="text-2xl font-bold text-slate-950 dark:text-white">{formatMoney(plan.price)}</span>{" "}
                      <span className="text-sm text-slate-600 dark:text-slate-400">{intervalLabel[plan.interval]}</span>
                    </p>
                    <CheckList small items={plan.features} className="mt-4 flex-1 space-y-2" />
                    {plan.interval !== "once" && (
                      <ButtonLink
                        to={`/account/services/websites/new?service=${service.id}&plan=${plan.id}`}
                        className="mt-5 text-center"
                      >
                        Choose {plan.name}
                      </ButtonLink>
                    )}
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
    </>
  );
}
