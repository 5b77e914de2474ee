import { Link } from "react-router";
import type { Service } from "../../common/view-types.ts";
import { formatMoney } from "../../common/format.ts";
import { ServiceIcon } from "./icons.tsx";
import { cardClass } from "./ui/card.tsx";

export type ServiceSummary = Pick<Service, "id" | "title" | "summary" | "icon" | "startingPrice"> & {
  lowestPlan?: Service["plans"][number];
};

export function toServiceSummary(service: Service): ServiceSummary {
  const { id, title, summary, icon, startingPrice, plans } = service;
  const lowestPlan = plans.length > 0 ? plans.reduce((a, b) => (a.price.amount <= b.price.amount ? a : b)) : undefined;
  return { id, title, summary, icon, startingPrice, lowestPlan };
}

export function ServiceCard({ service, headingLevel = 3 }: { service: ServiceSummary; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  const from = service.startingPrice
    ? `From ${formatMoney(service.startingPrice)}`
    : service.lowestPlan && `From ${formatMoney(service.lowestPlan.price)} ${service.lowestPlan.interval === "year" ? "a year" : "a month"}`;
  return (
    <article className={cardClass({ raised: true, className: "relative flex w-full flex-col p-6 transition hover:-translate-y-0.5 hover:shadow-md" })}>
      <span className="grid size-11 place-items-center rounded-xl bg-brand-100 text-brand-700 dark:bg-brand-900 dark:text-brand-200">
        <ServiceIcon name={service.icon} className="size-6" />
      </span>
      <Heading className="mt-4 text-lg font-semibold text-slate-950 dark:text-white">
        <Link to={`/service/${service.id}`} className="after:absolute after:inset-0 after:rounded-2xl">
          {service.title}
        </Link>
      </Heading>
      <p className="mt-2 flex-1 text-sm leading-6 text-slate-600 dark:text-slate-400">{service.summary}</p>
      {from && <p className="mt-4 text-sm font-semibold text-slate-950 dark:text-white">{from}</p>}
    </article>
  );
}
