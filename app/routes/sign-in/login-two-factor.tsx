import { redirect } from "react-router";
import { safeRedirectTarget } from "../../../server/auth/index.ts";
import { appServices, viewerContext } from "../../../server/context.ts";
import { SecondFactorForm } from "../../components/second-factor-form.tsx";
import { Container } from "../../components/page-intro.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/login-two-factor";
import { checkSecondFactor } from "./second-factor.server.ts";

/** The second step of signing in for someone with two-factor sign-in (staff): the password was right, now the code. */
export function loader({ request, context }: Route.LoaderArgs) {
  const redirectTo = safeRedirectTarget(new URL(request.url).searchParams.get("redirectTo"));
  if (context.get(viewerContext)) throw redirect(redirectTo);
  return { redirectTo };
}

export const meta: Route.MetaFunction = (args) => [...pageMeta(args, { title: "Enter your sign-in code", description: "The second step of signing in." }), { name: "robots", content: "noindex" }];

export async function action({ request, context }: Route.ActionArgs) {
  const checked = await checkSecondFactor(context.get(appServices).auth, request);
  if (!checked.ok) return checked.reply;
  throw redirect(safeRedirectTarget(checked.redirectTo), { headers: checked.headers });
}

export default function LoginTwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <Container className="max-w-md py-12 sm:py-16">
      <h1 className="text-2xl font-bold tracking-tight text-slate-950 dark:text-white">Enter your sign-in code</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">Your account uses two-factor sign-in. Open your authenticator app and enter the code it shows for Academy.</p>
      <SecondFactorForm redirectTo={loaderData.redirectTo} actionData={actionData} />
    </Container>
  );
}
