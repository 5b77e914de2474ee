import { data, Form, Link, useNavigation } from "react-router";
import { apiScopes, keyLifetimes, keyLimits } from "../../../common/api-keys.ts";
import { createApiKey, listApiKeys, revokeApiKey } from "../../../server/api/index.ts";
import { appServices, viewerContext } from "../../../server/context.ts";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { Container, PageIntro } from "../../components/page-intro.tsx";
import { SettingsSection } from "../../components/settings-section.tsx";
import { formatDay, formatMoment } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/api-tools";
import { Button } from "../../components/ui/button.tsx";
import { Select, TextField } from "../../components/ui/field.tsx";
import { Checkbox } from "../../components/ui/choice.tsx";
import { CopyButton } from "../../components/ui/copy-button.tsx";
import { z } from "zod";
import { checked, succeeded } from "../../../common/forms.ts";
import { attemptFor, readForm, refuse, succeed } from "../forms.server.ts";

const scopeText: Record<(typeof apiScopes)[number], string> = {
  read: "Read your courses, progress, notes, orders, receipts and websites",
  "notes:write": "Write, change and delete your notes",
};

const methods = ["get", "post", "patch", "put", "delete"] as const;

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  const { db, shop, apiDocument } = context.get(appServices);
  const operations = Object.entries(apiDocument.paths ?? {}).flatMap(([path, item]) =>
    methods.flatMap((method) => {
      const operation = item?.[method];
      return operation ? [{ method: method.toUpperCase(), path: `/api/v1${path}`, summary: operation.summary ?? "" }] : [];
    }),
  );
  return {
    signedIn: viewer !== null,
    keys: viewer ? await listApiKeys(db, viewer.id, shop.now()) : [],
    operations,
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "API and command-line tools",
    description: "Use Academy from your terminal with the academy CLI, or from your own scripts with the JSON API and personal API keys.",
  });

export function headers({ actionHeaders }: Route.HeadersArgs) {
  const cacheControl = actionHeaders.get("Cache-Control");
  return cacheControl ? { "Cache-Control": cacheControl } : new Headers();
}

const keysForm = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("create-key"),
    name: z.string(),
    scopes: checked(z.string()),
    lifetime: z.string().transform((days) => (days === "never" ? null : Number(days))),
  }),
  z.object({ intent: z.literal("revoke-key"), keyId: z.string() }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = context.get(viewerContext);
  const { db, shop } = context.get(appServices);
  const form = await readForm(request, keysForm);
  if (!form.ok) return form.reply;
  if (!viewer) return refuse(form, { status: 401, message: "Sign in to manage your API keys." });
  const input = form.value;
  switch (input.intent) {
    case "create-key": {
      const made = await attemptFor(form, () => createApiKey(db, viewer.id, { name: input.name, scopes: input.scopes, lifetimeDays: input.lifetime }, shop.now()));
      if (!made.ok) return made.reply;
      // The page now shows the key's secret: no cache may keep it.
      return data(
        { ...succeeded(form, `Key "${made.value.key.name}" made. Copy its secret now: it is not shown again.`), secret: made.value.secret },
        { headers: { "Cache-Control": "private, no-store" } },
      );
    }
    case "revoke-key": {
      const revoked = await attemptFor(form, () => revokeApiKey(db, viewer.id, input.keyId, shop.now()));
      return revoked.ok ? succeed(form, "The key is revoked. Anything using it can no longer sign in.") : revoked.reply;
    }
  }
}

const code = "rounded bg-slate-100 px-1.5 py-0.5 font-mono text-sm dark:bg-slate-800";
// Code wraps rather than scrolls, so a phone shows all of it and no region needs keyboard scrolling.
const block = "whitespace-pre-wrap break-all rounded-xl bg-slate-950 p-4 font-mono text-sm leading-6 text-slate-100";

export default function ApiTools({ loaderData, actionData }: Route.ComponentProps) {
  const { signedIn, keys, operations } = loaderData;
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const secret = actionData && "secret" in actionData && typeof actionData.secret === "string" ? actionData.secret : null;
  return (
    <Container className="py-12 sm:py-16">
      <PageIntro
        eyebrow="For developers"
        title="API and command-line tools"
        lead="Everything you do in your account, from a terminal or your own scripts: the academy CLI for people, a JSON API with personal keys for programs."
      />

      <div className="mt-10 grid gap-8 lg:grid-cols-2">
        <SettingsSection headingLevel={2} id="cli" title="The academy CLI" lead="List courses and your progress, keep notes in your editor, check orders, receipts and websites.">
          <ol className="list-decimal space-y-3 pl-5 text-sm text-slate-700 dark:text-slate-300">
            <li>
              Install it from a checkout of this project (Node 20.12 or later): <code className={code}>npm pack ./cli</code>, then{" "}
              <code className={code}>npm install -g ./academy-cli-*.tgz</code>.
            </li>
            <li>
              Sign in: <code className={code}>academy login</code>. It prints a code and opens this site, where you approve it.
            </li>
            <li>
              Then, for example: <code className={code}>academy notes add --title Hooks</code> opens your $EDITOR.
            </li>
          </ol>
          <pre className={`${block} mt-4`}>
            {[
              "academy whoami",
              "academy courses --json",
              "academy courses --jq '.courses[].title'",
              "academy progress",
              "academy notes [list|show|add|edit|rm|export]",
              "academy notes --search hooks --sort title",
              "academy orders --status paid",
              "academy receipts <orderId|ACD-000001>",
              "academy websites [list|show <webId|domain>]",
              "academy api GET /me",
              "academy open notes",
              "academy auth status",
              "academy logout",
              "academy completion bash",
            ].join("\n")}
          </pre>
          <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
            Every command takes <code className={code}>--help</code>, <code className={code}>--json</code> (or <code className={code}>--json title,progress</code> for some fields), <code className={code}>--jq FILTER</code> (jq, built in) and{" "}
            <code className={code}>--server URL</code> (or <code className={code}>ACADEMY_URL</code>). In scripts and CI, give an API key as{" "}
            <code className={code}>ACADEMY_TOKEN</code> or <code className={code}>--token</code> instead of signing in. Lists take <code className={code}>--limit</code>,{" "}
            <code className={code}>--sort FIELD</code> (<code className={code}>--desc</code>) and filters. Exit codes: 0 ok, 1 failure, 2 usage, 3 not signed in, 4 not found.
          </p>
        </SettingsSection>

        <SettingsSection headingLevel={2} id="keys" title="API keys" lead="For your own scripts: send a key as Authorization: Bearer <key>. Each key does only what you allow, and stops working when it expires or you revoke it.">
          {!signedIn ? (
            <p className="text-sm text-slate-700 dark:text-slate-300">
              <Link to="/login?redirectTo=%2Fapi-tools" className="font-semibold text-brand-700 underline dark:text-brand-300">
                Sign in
              </Link>{" "}
              to make and manage your keys.
            </p>
          ) : (
            <div className="space-y-6">
              {actionData?.message && <FormAlert tone={actionData.ok ? "success" : "error"}>{actionData.message}</FormAlert>}
              {secret && (
                <div className="rounded-xl border border-amber-300 bg-amber-50 p-4 dark:border-amber-700 dark:bg-amber-950">
                  <label htmlFor="new-secret" className="text-sm font-semibold text-amber-950 dark:text-amber-100">
                    Your new key (shown once)
                  </label>
                  <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2">
                    <input
                      id="new-secret"
                      readOnly
                      value={secret}
                      onFocus={(event) => event.currentTarget.select()}
                      className="block w-full min-w-0 flex-1 basis-64 rounded-lg border border-amber-300 bg-white px-3 py-2 font-mono text-sm dark:border-amber-700 dark:bg-slate-900"
                    />
                    <CopyButton value={secret} label="your new key" />
                  </div>
                </div>
              )}
              {/* A new form once a key is made, so the fields start empty for the next one. */}
              <Form method="post" key={secret ?? "new-key"} className="space-y-4" noValidate>
                <TextField label="Name" name="name" required maxLength={keyLimits.name} placeholder="Reading-list script" />
                <fieldset>
                  <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">It may</legend>
                  {apiScopes.map((scope) => (
                    <Checkbox key={scope} name="scopes" value={scope} defaultChecked={scope === "read"} className="mt-2">
                      {scopeText[scope]} <span className="font-mono text-xs text-slate-500 dark:text-slate-400">({scope})</span>
                    </Checkbox>
                  ))}
                </fieldset>
                <Select id="lifetime" label="Expires" name="lifetime" defaultValue="90">
                  {keyLifetimes.map((days) => (
                    <option key={String(days)} value={days === null ? "never" : String(days)}>
                      {days === null ? "Never" : `In ${days} days`}
                    </option>
                  ))}
                </Select>
                <Button
                  type="submit"
                  name="intent"
                  value="create-key"
                  disabled={busy("create-key")}
                >
                  {busy("create-key") ? "Making the key…" : "Make a key"}
                </Button>
              </Form>
              {keys.length === 0 ? (
                <p className="text-sm text-slate-600 dark:text-slate-400">You have no API keys.</p>
              ) : (
                <ul aria-label="Your API keys" className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
                  {keys.map((key) => (
                    <li key={key.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
                      <div className="min-w-0">
                        <p className="font-medium text-slate-950 dark:text-white">{key.name}</p>
                        <p className="text-sm text-slate-600 dark:text-slate-400">
                          <span className="font-mono">{key.prefix}…</span> · {key.scopes.join(", ")} · {key.expiresAt ? `expires ${formatDay(key.expiresAt)}` : "never expires"}
                        </p>
                        <p className="text-xs text-slate-500 dark:text-slate-400">{key.lastUsedAt ? `Last used ${formatMoment(key.lastUsedAt)}` : "Never used"}</p>
                      </div>
                      <ConfirmDialog
                        trigger={<>Revoke<span className="sr-only"> {key.name}</span></>}
                        triggerStyle={{ variant: "danger-outline", size: "xs" }}
                        title={`Revoke "${key.name}"?`}
                        fields={{ intent: "revoke-key", keyId: key.id }}
                        confirmLabel="Revoke the key"
                        pendingLabel="Revoking…"
                        pending={busy("revoke-key")}
                      >
                        Anything that uses this key stops working at once. This cannot be undone.
                      </ConfirmDialog>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
        </SettingsSection>
      </div>

      <section aria-labelledby="reference-heading" className="mt-12">
        <h2 id="reference-heading" className="text-2xl font-bold tracking-tight text-slate-950 dark:text-white">
          API reference
        </h2>
        <p className="mt-2 text-slate-600 dark:text-slate-300">
          JSON over HTTPS at <code className={code}>/api/v1</code>. Errors always look like <code className={code}>{'{ "error": { "code", "message", "fields"? } }'}</code>; lists take{" "}
          <code className={code}>limit</code> and <code className={code}>cursor</code>; every answer carries <code className={code}>RateLimit-*</code> headers with what is left of
          the credential&apos;s requests this minute. The full contract is the{" "}
          <a href="/api/v1/openapi.json" className="font-semibold text-brand-700 underline dark:text-brand-300">
            OpenAPI 3.1 document
          </a>
          , also as an{" "}
          <Link to="/api-tools/reference" className="font-semibold text-brand-700 underline dark:text-brand-300">
            interactive reference
          </Link>{" "}
          where you can try each operation with your key.
        </p>
        <pre className={`${block} mt-4`}>{"curl -H \"Authorization: Bearer $ACADEMY_KEY\" https://your-academy/api/v1/notes?limit=10"}</pre>
        <div className="mt-6 rounded-xl border border-slate-200 dark:border-slate-800">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Every operation of the API</caption>
            <thead className="bg-slate-50 text-slate-700 dark:bg-slate-900 dark:text-slate-300">
              <tr>
                <th scope="col" className="px-4 py-2">
                  Method
                </th>
                <th scope="col" className="px-4 py-2">
                  Path
                </th>
                <th scope="col" className="px-4 py-2">
                  What it does
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
              {operations.map((op) => (
                <tr key={`${op.method} ${op.path}`}>
                  <td className="px-2 py-2 font-mono font-semibold sm:px-4">{op.method}</td>
                  <td className="px-4 py-2 font-mono break-all">{op.path}</td>
                  <td className="px-4 py-2 text-slate-700 dark:text-slate-300">{op.summary}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </Container>
  );
}
