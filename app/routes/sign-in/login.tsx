import type { ReactNode } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { authErrorMessage, emailVerifiedPath, postToAuth, safeRedirectTarget, verifyEmailPath, wellFormedUserCode } from "../../../server/auth/index.ts";
import { appServices, viewerContext } from "../../../server/context.ts";
import { profileName } from "../../../server/users/index.ts";
import { CliApproval, CliCodeBox } from "../../components/cli-approval.tsx";
import { nameLength, passwordLength } from "../../../common/limits.ts";
import { AuthCard, PasswordField, SubmitButton } from "../../components/form-controls.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { GoogleButton } from "../../components/google-button.tsx";
import { ProofOfWork } from "../../components/proof-of-work.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/login";
import { TextField } from "../../components/ui/field.tsx";
import { Checkbox } from "../../components/ui/choice.tsx";
import { fieldState, flag, refused, replyFor, type FormReply } from "../../../common/forms.ts";
import { accountExistsMessage } from "../../../common/sign-in.ts";
import { readForm, refuse } from "../forms.server.ts";

type Mode = "signin" | "signup";

/** The approval page carries its idToken, a secret of the session: never kept by any cache. */
const secretPage = (retryAfterSeconds?: number) =>
  new Headers({ "Cache-Control": "private, no-store", ...(retryAfterSeconds === undefined ? {} : { "Retry-After": String(retryAfterSeconds) }) });

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  const result = new Headers();
  for (const source of [loaderHeaders, actionHeaders]) {
    for (const name of ["Cache-Control", "Retry-After"]) {
      const value = source.get(name);
      if (value) result.set(name, value);
    }
  }
  return result;
}

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const cliToken = url.searchParams.get("cliToken");
  const viewer = context.get(viewerContext);
  // `academy login` opens /login?cliToken=<code>: signed in, the person approves it here; signed out, they sign in first and come back.
  if (cliToken !== null && viewer) {
    const { cliLogin, shop } = context.get(appServices);
    const now = shop.now();
    const pending = await cliLogin.pending(cliToken, now, { userId: viewer.id, address: cliLogin.addressOf(request.headers) });
    const retryAfterSeconds = "retryAfterSeconds" in pending ? pending.retryAfterSeconds : undefined;
    return data(
      {
        cli: {
          cliToken,
          email: viewer.email,
          idToken: await cliLogin.idTokenFor({ sessionId: viewer.sessionId, userId: viewer.id, email: viewer.email, code: cliToken }, now),
          request: pending,
        },
      },
      { status: retryAfterSeconds === undefined ? 200 : 429, headers: secretPage(retryAfterSeconds) },
    );
  }
  const redirectTo = cliToken !== null ? `/login?cliToken=${encodeURIComponent(cliToken)}` : safeRedirectTarget(url.searchParams.get("redirectTo"));
  if (viewer) throw redirect(redirectTo);
  // Signing in for the CLI: the page says so, with the code to compare with the terminal's.
  const cliCode = redirectTo.startsWith("/login?") ? new URLSearchParams(redirectTo.slice("/login?".length)).get("cliToken") : null;
  // Enrolling without an account: the page is about that course, and creating the account comes first.
  const enrolling = /^\/courses\/([^/?#]+)\/confirm(?:[?#]|$)/.exec(redirectTo)?.[1];
  const course = enrolling ? context.get(appServices).catalog.courses.find((c) => c.id === enrolling) : undefined;
  const requested = url.searchParams.get("mode");
  const mode: Mode = requested === "signup" || (requested === null && course) ? "signup" : "signin";
  const notice = url.searchParams.get("reset") === "1" ? "Your password was changed. Sign in with the new one." : null;
  const googleError = {
    google: "Google sign-in did not finish. Please try again, or use your e-mail and password.",
    "google-rate": "Too many requests. Please wait a few minutes before trying again.",
    "google-unavailable": "Google sign-in is not available right now. Please use your e-mail and password.",
  }[url.searchParams.get("error") ?? ""];
  return {
    cli: null,
    mode,
    redirectTo,
    enrolIn: course?.title ?? null,
    forCli: cliCode === null ? null : { code: wellFormedUserCode(cliCode) },
    notice,
    googleError: googleError ?? null,
    googleEnabled: context.get(appServices).googleEnabled,
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.cli || args.loaderData?.forCli
      ? "Sign in the Academy CLI"
      : args.loaderData?.enrolIn
        ? `${args.loaderData.mode === "signup" ? "Create your account" : "Sign in"} to enrol in ${args.loaderData.enrolIn}`
        : args.loaderData?.mode === "signup"
          ? "Create an account"
          : "Sign in",
    description: "Sign in to your Academy account, or create one to buy courses and manage your websites.",
  });

const email = z.string().trim().toLowerCase().email("Enter a valid e-mail address, like name@example.com.");
const password = z
  .string()
  .min(passwordLength.min, `Your password needs at least ${passwordLength.min} characters.`)
  .max(passwordLength.max, `Your password can have at most ${passwordLength.max} characters.`);
const loginForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("signin"), email, password: z.string().min(1, "Enter your password."), remember: flag("on"), redirectTo: z.string().optional(), proof: z.string().optional() }),
  z.object({ intent: z.literal("signup"), name: profileName, email, password, redirectTo: z.string().optional(), proof: z.string().optional() }),
  z.object({ intent: z.enum(["cli-approve", "cli-deny"]), cliToken: z.string(), email: z.string(), idToken: z.string() }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const { auth, cliLogin, shop } = context.get(appServices);
  const form = await readForm(request, loginForm);
  if (!form.ok) return form.reply;
  const input = form.value;
  switch (input.intent) {
    case "cli-approve":
    case "cli-deny": {
      const approve = input.intent === "cli-approve";
      const from = { address: cliLogin.addressOf(request.headers), sessionId: context.get(viewerContext)?.sessionId ?? null };
      const decided = await cliLogin.decide({ cliToken: input.cliToken, email: input.email, idToken: input.idToken, approve }, shop.now(), from);
      if (!decided.ok) return data(refused(form, decided.message), { status: decided.status, headers: secretPage(decided.retryAfterSeconds) });
      throw redirect(decided.next);
    }
    case "signup": {
      const redirectTo = safeRedirectTarget(input.redirectTo ?? null);
      const result = await postToAuth(auth, request, "/sign-up/email", { name: input.name, email: input.email, password: input.password, callbackURL: emailVerifiedPath(redirectTo) }, input.proof);
      if (!result.ok) return refuse(form, { ...result, message: authErrorMessage("sign-up", result) });
      throw redirect(verifyEmailPath(redirectTo), { headers: result.headers });
    }
    case "signin": {
      const redirectTo = safeRedirectTarget(input.redirectTo ?? null);
      const result = await postToAuth(auth, request, "/sign-in/email", { email: input.email, password: input.password, rememberMe: input.remember }, input.proof);
      if (!result.ok) return refuse(form, { ...result, message: authErrorMessage("sign-in", result) });
      // Two-factor sign-in (staff): the password was right; the code comes next, and only then a session.
      if ((result.body as { twoFactorRedirect?: unknown } | null)?.twoFactorRedirect === true) {
        throw redirect(`/login/two-factor?redirectTo=${encodeURIComponent(redirectTo)}`, { headers: result.headers });
      }
      throw redirect(redirectTo, { headers: result.headers });
    }
  }
}

export default function LoginPage({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.cli) return <CliApproval {...loaderData.cli} error={replyFor(actionData, "cli-approve", "cli-deny")?.message ?? null} />;
  return <SignInForm loaderData={loaderData} actionData={replyFor(actionData, "signin", "signup")} />;
}

type SignInData = Exclude<Route.ComponentProps["loaderData"], { cli: object }>;

/** What the card is for: the CLI's sign-in, an enrolment, or the account itself. */
function cardHeading(mode: Mode, { enrolIn, forCli }: SignInData, modeLink: (m: Mode) => string): { title: string; lead: ReactNode } {
  if (forCli) {
    return mode === "signup"
      ? { title: "Create your account for the Academy CLI", lead: "Then verify your e-mail, and you will be back here to approve the academy command in your terminal." }
      : { title: "Sign in the Academy CLI", lead: "The academy command in your terminal asked to sign in. Sign in to your account, then approve it on the next page." };
  }
  if (enrolIn) {
    return {
      title: `${mode === "signup" ? "Create your account" : "Sign in"} to enrol in ${enrolIn}`,
      lead:
        mode === "signup" ? (
          <>
            Then verify your e-mail, and you will be back here to pay. Already have an account?{" "}
            <Link to={modeLink("signin")} replace className="font-semibold text-brand-700 underline dark:text-brand-300">
              Sign in
            </Link>
          </>
        ) : (
          "You will be back on the enrolment page once you are signed in."
        ),
    };
  }
  return mode === "signup"
    ? { title: "Create your account", lead: "Buy courses, track your progress and manage your websites." }
    : { title: "Welcome back", lead: "Sign in to continue learning." };
}

function SignInForm({ loaderData, actionData }: { loaderData: SignInData; actionData: FormReply | undefined }) {
  const mode: Mode = actionData?.intent === "signup" || (!actionData && loaderData.mode === "signup") ? "signup" : "signin";
  const { redirectTo, forCli, notice, googleError, googleEnabled } = loaderData;
  const pending = useNavigation().state === "submitting";
  const modeLink = (m: Mode) => `/login?mode=${m}${redirectTo !== "/" ? `&redirectTo=${encodeURIComponent(redirectTo)}` : ""}`;
  const tab = (m: Mode, label: string) => (
    <Link
      to={modeLink(m)}
      replace
      aria-current={mode === m ? "page" : undefined}
      className={`flex-1 whitespace-nowrap rounded-full px-3 py-2 text-center text-sm font-semibold ${
        mode === m
          ? "bg-white text-slate-950 shadow-sm dark:bg-slate-700 dark:text-white"
          : "text-slate-600 hover:text-slate-950 dark:text-slate-400 dark:hover:text-white"
      }`}
    >
      {label}
    </Link>
  );

  const { title, lead } = cardHeading(mode, loaderData, modeLink);
  return (
    <AuthCard title={title} lead={lead}>
      {forCli?.code && (
        <div className="mb-6">
          <CliCodeBox code={forCli.code} />
        </div>
      )}
      <nav aria-label="Sign in or create an account" className="mb-6 flex rounded-full bg-slate-100 p-1 dark:bg-slate-800">
        {tab("signin", "Sign in")}
        {tab("signup", "Create account")}
      </nav>
      {notice && !actionData && <FormAlert tone="success">{notice}</FormAlert>}
      {actionData?.message && (
        <FormAlert>
          {actionData.message === accountExistsMessage ? (
            <>
              {accountExistsMessage.replace(/sign in instead$/, "")}
              <Link to={modeLink("signin")} replace className="font-semibold underline">
                sign in instead
              </Link>
            </>
          ) : (
            actionData.message
          )}
        </FormAlert>
      )}
      {googleError && !actionData && <FormAlert>{googleError}</FormAlert>}
      {googleEnabled && (
        <div className="mt-4">
          <GoogleButton redirectTo={redirectTo} />
          <p className="my-4 flex items-center gap-3 text-xs text-slate-500 before:h-px before:flex-1 before:bg-slate-200 after:h-px after:flex-1 after:bg-slate-200 dark:text-slate-400 dark:before:bg-slate-700 dark:after:bg-slate-700">
            or with e-mail
          </p>
        </div>
      )}
      <Form method="post" replace className="mt-4 space-y-4" noValidate>
        <input type="hidden" name="intent" value={mode} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {mode === "signup" && (
          <TextField
            label="Your name"
            name="name"
            autoComplete="name"
            required
            maxLength={nameLength.max}
            {...fieldState(actionData, "name")}
          />
        )}
        <TextField
          label="E-mail"
          name="email"
          type="email"
          autoComplete="email"
          required
          {...fieldState(actionData, "email")}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete={mode === "signup" ? "new-password" : "current-password"}
          showStrength={mode === "signup"}
          error={fieldState(actionData, "password").error}
        />
        {mode === "signin" && (
          <div className="flex items-center justify-between text-sm">
            <Checkbox name="remember" defaultChecked>
              Keep me signed in
            </Checkbox>
            <Link to="/forgot-password" className="font-medium text-brand-700 hover:underline dark:text-brand-300">
              Forgot password?
            </Link>
          </div>
        )}
        <ProofOfWork challenge={actionData?.challenge} />
        <SubmitButton pending={pending}>
          {pending ? "Please wait…" : mode === "signup" ? "Create account" : "Sign in"}
        </SubmitButton>
      </Form>
      {mode === "signup" && (
        <p className="mt-6 text-xs text-slate-600 dark:text-slate-400">
          By creating an account you agree to our{" "}
          <Link to="/terms" className="underline">
            terms
          </Link>{" "}
          and{" "}
          <Link to="/privacy" className="underline">
            privacy policy
          </Link>
          .
        </p>
      )}
    </AuthCard>
  );
}
