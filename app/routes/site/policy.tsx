import { data } from "react-router";
import { policySlugs, type PolicySlug } from "../../../server/catalog/index.ts";
import { appServices } from "../../../server/context.ts";
import { CookieSettingsButton } from "../../components/cookie-settings-button.tsx";
import { Container, PageIntro, Prose } from "../../components/page-intro.tsx";
import { formatDate } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/policy";
import { buttonClass } from "../../components/ui/button.tsx";

export function loader({ request, context }: Route.LoaderArgs) {
  const slug = new URL(request.url).pathname.slice(1) as PolicySlug;
  if (!policySlugs.includes(slug)) throw data(null, { status: 404 });
  const { catalog, analyticsId } = context.get(appServices);
  return { policy: catalog.policies[slug], cookieSettings: slug === "cookies" && analyticsId !== null };
}

export const meta: Route.MetaFunction = (args) =>
  args.loaderData ? pageMeta(args, { title: args.loaderData.policy.title, description: args.loaderData.policy.description }) : [];

export default function PolicyPage({ loaderData: { policy, cookieSettings } }: Route.ComponentProps) {
  return (
    <Container className="py-12 sm:py-16">
      <PageIntro eyebrow="Policies" title={policy.title}>
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
          Last updated <time dateTime={policy.updated}>{formatDate(policy.updated)}</time>
        </p>
      </PageIntro>
      <Prose html={policy.html} className="mt-8 max-w-3xl" />
      {cookieSettings && (
        <CookieSettingsButton className={buttonClass({ variant: "secondary", className: "mt-8" })} />
      )}
    </Container>
  );
}
