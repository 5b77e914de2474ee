import { useEffect, useRef } from "react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { callAuth } from "../../../server/auth/index.ts";
import { appServices, viewerContext } from "../../../server/context.ts";
import { listWebsites, websiteState } from "../../../server/websites/index.ts";
import { SettingsSection } from "../../components/settings-section.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { describeDevice } from "../../lib/device.ts";
import { formatDay } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import { type ThemePreference, useThemePreference } from "../../lib/theme.ts";
import type { Route } from "./+types/settings";
import { Button, buttonClass } from "../../components/ui/button.tsx";
import { controlClass } from "../../components/ui/field.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { choiceCardClass } from "../../components/ui/choice.tsx";
import { z } from "zod";
import { fieldState, replyFor } from "../../../common/forms.ts";
import { readForm, refuse, succeed } from "../forms.server.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  if (!viewer) throw redirect("/login?redirectTo=%2Fsettings");
  const { auth, db, shop } = context.get(appServices);
  const [sessions, websites] = await Promise.all([auth.api.listSessions({ headers: request.headers }), listWebsites(db, viewer.id)]);
  const now = shop.now();
  return {
    email: viewer.email,
    // Websites still online, whose hosting a deletion would end.
    hosted: websites.flatMap((site) => {
      const state = websiteState(site, now);
      return site.expiresAt && (state === "active" || state === "expiring" || state === "expired") ? [{ id: site.id, domain: site.domain, paidUntil: site.expiresAt.toISOString() }] : [];
    }),
    // Session tokens are credentials: the page gets ids only.
    sessions: sessions
      .map((s) => ({
        id: s.id,
        device: describeDevice(s.userAgent),
        ipAddress: s.ipAddress ?? null,
        signedIn: new Date(s.createdAt).toISOString(),
        lastSeen: new Date(s.updatedAt).toISOString(),
        current: s.id === viewer.sessionId,
      }))
      .toSorted((a, b) => Number(b.current) - Number(a.current) || b.lastSeen.localeCompare(a.lastSeen)),
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Settings", description: "Theme, signed-in devices, your data and your account." });

const settingsForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("revoke-session"), sessionId: z.string() }),
  z.object({ intent: z.literal("revoke-others") }),
  z.object({ intent: z.literal("delete-account"), confirmation: z.string() }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = context.get(viewerContext);
  if (!viewer) throw redirect("/login?redirectTo=%2Fsettings");
  const { auth } = context.get(appServices);
  const form = await readForm(request, settingsForm);
  if (!form.ok) return form.reply;
  const input = form.value;
  switch (input.intent) {
    case "revoke-session": {
      const sessions = await auth.api.listSessions({ headers: request.headers });
      const target = sessions.find((s) => s.id === input.sessionId);
      if (!target) return refuse(form, { status: 404, message: "That device is already signed out." });
      await auth.api.revokeSession({ body: { token: target.token }, headers: request.headers });
      return succeed(form, `${describeDevice(target.userAgent)} was signed out.`);
    }
    case "revoke-others":
      await auth.api.revokeOtherSessions({ headers: request.headers });
      return succeed(form, "Every other device was signed out.");
    case "delete-account": {
      if (input.confirmation.trim().toLowerCase() !== viewer.email.toLowerCase()) {
        return refuse(form, { status: 400, message: `Type your e-mail address, ${viewer.email}, to confirm.` });
      }
      const result = await callAuth(auth.api.deleteUser({ body: {}, headers: request.headers, asResponse: true }));
      if (!result.ok) {
        const message =
          result.status === 400 || result.status === 401 || result.status === 403
            ? "For your safety, sign out and sign in again, then delete your account within a day."
            : result.message;
        return refuse(form, { status: result.status, message });
      }
      // Better Auth's beforeDelete hook erased the rest (server/users/delete-account.ts), as for every deletion.
      throw redirect("/?deleted=1", { headers: result.headers });
    }
  }
}

const themeOptions: { value: ThemePreference; label: string; hint: string }[] = [
  { value: "system", label: "System", hint: "Follow this device's light or dark setting" },
  { value: "light", label: "Light", hint: "Always light" },
  { value: "dark", label: "Dark", hint: "Always dark" },
];

function ThemeSetting() {
  const [preference, setPreference] = useThemePreference();
  const group = useRef<HTMLFieldSetElement>(null);
  // A theme picked before the script arrived is the radio checked that the page was not sent checked.
  useEffect(() => {
    const early = group.current?.querySelector<HTMLInputElement>('input[name="theme"]:checked');
    const picked = themeOptions.find((option) => option.value === early?.value);
    if (picked && early && !early.defaultChecked) setPreference(picked.value);
  }, [setPreference]);
  // The radios are the browser's own (so hydration keeps an early choice); the header's switch moves them too.
  useEffect(() => {
    const current = group.current?.querySelector<HTMLInputElement>(`input[name="theme"][value="${preference}"]`);
    if (current) current.checked = true;
  }, [preference]);
  return (
    <fieldset ref={group}>
      <legend className="sr-only">Theme</legend>
      <div className="grid gap-3 sm:grid-cols-3">
        {themeOptions.map((option) => (
          <div
            key={option.value}
            className={choiceCardClass}
          >
            <input
              id={`theme-${option.value}`}
              type="radio"
              name="theme"
              value={option.value}
              defaultChecked={preference === option.value}
              onChange={() => setPreference(option.value)}
              aria-describedby={`theme-${option.value}-hint`}
              className="mt-1"
            />
            <span>
              <label htmlFor={`theme-${option.value}`} className="block cursor-pointer font-medium text-slate-950 dark:text-white">
                {option.label}
              </label>
              <span id={`theme-${option.value}-hint`} className="block text-sm text-slate-600 dark:text-slate-400">
                {option.hint}
              </span>
            </span>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

const lastSeenFormat = new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeStyle: "short", timeZone: "Asia/Kolkata" });

export default function SettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const others = loaderData.sessions.filter((s) => !s.current).length;
  const result = (...intents: string[]) => {
    const reply = replyFor(actionData, ...intents);
    return reply?.message ? <FormAlert tone={reply.ok ? "success" : "error"}>{reply.message}</FormAlert> : null;
  };

  return (
    <section aria-labelledby="settings-heading" className="max-w-3xl">
      <h2 id="settings-heading" className="text-xl font-semibold tracking-tight text-slate-950 dark:text-white">
        Settings
      </h2>
      <div className="mt-6 space-y-6">
        <SettingsSection id="theme" title="Theme" lead="The same choice as the switch in the header; it is kept on this device.">
          <ThemeSetting />
        </SettingsSection>

        <SettingsSection id="devices" title="Signed-in devices" lead="Sign out anywhere you no longer use.">
          <div className="space-y-4">
            {result("revoke-session", "revoke-others")}
            <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
              {loaderData.sessions.map((s) => (
                <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
                  <div>
                    <p className="font-medium text-slate-950 dark:text-white">
                      {s.device}
                      {s.current && (
                        <Badge tone="success" className="ml-2">
                          This device
                        </Badge>
                      )}
                    </p>
                    <p className="text-sm text-slate-600 dark:text-slate-400">
                      Signed in {formatDay(s.signedIn)} · last active {lastSeenFormat.format(new Date(s.lastSeen))} IST{s.ipAddress ? ` · ${s.ipAddress}` : ""}
                    </p>
                  </div>
                  {!s.current && (
                    <Form method="post">
                      <input type="hidden" name="sessionId" value={s.id} />
                      <Button
                        type="submit"
                        name="intent"
                        value="revoke-session"
                        variant="secondary"
                        size="xs"
                      >
                        Sign out<span className="sr-only"> {s.device}</span>
                      </Button>
                    </Form>
                  )}
                </li>
              ))}
            </ul>
            {others > 0 && (
              <Form method="post">
                <button type="submit" name="intent" value="revoke-others" className="text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300">
                  Sign out of all other devices ({others})
                </button>
              </Form>
            )}
          </div>
        </SettingsSection>

        <SettingsSection id="data" title="Your data" lead="A copy of everything we hold about you: account, profile, devices, courses and progress, notes, certificates, orders and payments, websites and the e-mails we sent you.">
          <a
            href="/settings/my-data.json"
            download
            className={buttonClass({ variant: "secondary", className: "inline-block" })}
          >
            Download my data (JSON)
          </a>
        </SettingsSection>

        <SettingsSection id="delete" title="Delete account" lead="Deleting your account is immediate and cannot be undone. Before you go, you can download a copy of your data above.">
          <Form method="post" className="space-y-3">
            <div className="grid gap-4 text-sm sm:grid-cols-2">
              <div>
                <p className="font-semibold text-slate-950 dark:text-white">What is deleted, for good</p>
                <ul className="mt-1 list-disc space-y-0.5 pl-5 text-slate-700 dark:text-slate-300">
                  <li>your sign-in, profile and photo, and every signed-in device and API key</li>
                  <li>your courses and progress: you lose access, and nothing is refunded</li>
                  <li>your notes and reviews</li>
                  <li>your certificates: their public pages stop confirming them</li>
                  <li>your hosted websites: their hosting ends now</li>
                  <li>the e-mails we sent you</li>
                </ul>
              </div>
              <div>
                <p className="font-semibold text-slate-950 dark:text-white">What is kept</p>
                <ul className="mt-1 list-disc space-y-0.5 pl-5 text-slate-700 dark:text-slate-300">
                  <li>the GST invoices of your purchases, as tax law requires, without your name, e-mail or account</li>
                </ul>
                <p className="mt-3 text-slate-700 dark:text-slate-300">
                  Want a refund first? Ask from <Link to="/account/orders" className="font-medium text-brand-700 underline dark:text-brand-300">your orders</Link> while the policy allows it.
                </p>
              </div>
            </div>
            {result("delete-account")}
            {loaderData.hosted.length > 0 && (
              <div role="note" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
                <p className="font-semibold">Deleting your account ends the hosting of {loaderData.hosted.length === 1 ? "this website" : "these websites"} now, without a refund:</p>
                <ul className="mt-1 list-disc pl-5">
                  {loaderData.hosted.map((site) => (
                    <li key={site.id}>
                      {site.domain}, paid until {formatDay(site.paidUntil)}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            <label htmlFor="confirmation" className="block text-sm text-slate-800 dark:text-slate-200">
              Type <strong>{loaderData.email}</strong> to confirm
            </label>
            <input
              id="confirmation"
              name="confirmation"
              autoComplete="off"
              defaultValue={fieldState(actionData, "confirmation").defaultValue}
              className={controlClass({ className: "block w-full" })}
            />
            <Button
              type="submit"
              name="intent"
              value="delete-account"
              disabled={navigation.state === "submitting"}
              variant="danger"
            >
              Delete my account
            </Button>
          </Form>
        </SettingsSection>
      </div>
    </section>
  );
}
