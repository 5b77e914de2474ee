import { redirect } from "react-router";
import { staffSecondFactorHours } from "../../../common/staff.ts";
import { safeRedirectTarget } from "../../../server/auth/index.ts";
import { appServices } from "../../../server/context.ts";
import { secondFactorNeeded } from "../../../server/staff/index.ts";
import { SecondFactorForm } from "../../components/second-factor-form.tsx";
import { checkSecondFactor } from "../sign-in/second-factor.server.ts";
import type { Route } from "./+types/two-factor";
import { backOfficeMeta } from "./meta.ts";
import { staffOf } from "./access.server.ts";

/** Where to go on in the back office once the code is accepted: an address inside it, never elsewhere. */
function onward(value: string | null | undefined): string {
  const target = safeRedirectTarget(value, "/admin");
  return /^\/admin([/?]|$)/.test(target) ? target : "/admin";
}

/** A staff member confirms their second factor on this session: on first use, and again every 12 hours. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = await staffOf(context);
  const redirectTo = onward(new URL(request.url).searchParams.get("redirectTo"));
  const needed = secondFactorNeeded(member);
  if (needed === "set-up") throw redirect("/admin/two-factor/set-up");
  if (needed === null) throw redirect(redirectTo);
  return { redirectTo, expired: member.secondFactorAt !== null };
}

export const meta: Route.MetaFunction = () => backOfficeMeta("Confirm it's you");

export async function action({ request, context }: Route.ActionArgs) {
  await staffOf(context);
  const checked = await checkSecondFactor(context.get(appServices).auth, request);
  if (!checked.ok) return checked.reply;
  throw redirect(onward(checked.redirectTo), { headers: checked.headers });
}

export default function ConfirmSecondFactor({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="max-w-md">
      <h1 className="text-2xl font-bold tracking-tight text-slate-950 dark:text-white">Confirm it's you</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">
        {loaderData.expired
          ? `The back office asks for your code again every ${staffSecondFactorHours} hours.`
          : "Enter the code from your authenticator app to open the back office on this device."}
      </p>
      <SecondFactorForm redirectTo={loaderData.redirectTo} actionData={actionData} />
    </div>
  );
}
