import { Form, redirect } from "react-router";
import { callAuth } from "../../../server/auth/index.ts";
import { appServices, viewerContext } from "../../../server/context.ts";
import { AuthCard, SubmitButton } from "../../components/form-controls.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { pageMeta } from "../../lib/seo.ts";
import { z } from "zod";
import type { Route } from "./+types/logout";
import { readForm, refuse } from "../forms.server.ts";

export function loader({ context }: Route.LoaderArgs) {
  if (!context.get(viewerContext)) throw redirect("/");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Sign out", description: "Sign out of Academy." });

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request, z.object({}));
  if (!form.ok) return form.reply;
  const result = await callAuth(context.get(appServices).auth.api.signOut({ headers: request.headers, asResponse: true }));
  // Spec §8: a sign-out failure shows its own message.
  if (!result.ok) return refuse(form, { status: result.status, message: result.message });
  throw redirect("/", { headers: result.headers });
}

export default function LogoutPage({ actionData }: Route.ComponentProps) {
  return (
    <AuthCard title="Sign out" lead="You can sign in again at any time.">
      {actionData?.message && <FormAlert>{actionData.message}</FormAlert>}
      <Form method="post" className="mt-4">
        <SubmitButton>Sign out</SubmitButton>
      </Form>
    </AuthCard>
  );
}
