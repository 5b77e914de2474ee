import { appServices } from "../../../server/context.ts";
import { Container, PageIntro } from "../../components/page-intro.tsx";
import { ServiceCard, toServiceSummary } from "../../components/service-card.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/services";

export function loader({ context }: Route.LoaderArgs) {
  return { services: context.get(appServices).catalog.services.map(toServiceSummary) };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Services",
    description:
      "Website design and development, managed hosting and maintenance, e-commerce, corporate training and cloud consulting for businesses in India.",
  });

export default function ServicesPage({ loaderData: { services } }: Route.ComponentProps) {
  return (
    <Container className="py-12 sm:py-16">
      <PageIntro
        eyebrow="Services"
        title="We build, host and look after the web for your business"
        lead="The engineers who teach our courses also ship client work. Tell us what you need and we will scope it honestly, with a fixed price where we can."
      />
      <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {services.map((service) => (
          <li key={service.id} className="flex">
            <ServiceCard service={service} headingLevel={2} />
          </li>
        ))}
      </ul>
    </Container>
  );
}
