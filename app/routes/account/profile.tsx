import { useState, type ChangeEvent, type FormEvent } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { authErrorMessage, callAuth } from "../../../server/auth/index.ts";
import { appServices, viewerContext } from "../../../server/context.ts";
import { StorageUnavailable } from "../../../server/storage/index.ts";
import { PhotoError, profileName, readUserDocument, setProfilePhoto } from "../../../server/users/index.ts";
import { SettingsSection } from "../../components/settings-section.tsx";
import { FormAlert, PasswordField } from "../../components/form-controls.tsx";
import { nameLength, passwordLength, profilePhoto } from "../../../common/limits.ts";
import { formatDate, initials } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/profile";
import { Button } from "../../components/ui/button.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { Badge } from "../../components/ui/badge.tsx";

function requireViewer(context: Route.LoaderArgs["context"]) {
  const viewer = context.get(viewerContext);
  if (!viewer) throw new Response(null, { status: 401 });
  return viewer;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context);
  const { auth, db, cipher, logger } = context.get(appServices);
  const [document, accounts] = await Promise.all([
    readUserDocument(db, cipher, logger, viewer.id),
    auth.api.listUserAccounts({ headers: request.headers }),
  ]);
  return {
    name: viewer.name,
    email: viewer.email,
    emailVerified: viewer.emailVerified,
    photo: viewer.image,
    memberSince: document?.createdAt.toISOString() ?? null,
    hasPassword: accounts.some((a) => a.providerId === "credential"),
    passwordChanged: new URL(request.url).searchParams.get("password") === "changed",
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Your profile", description: "Your name, photo, e-mail and password." });

const nameForm = z.object({ name: profileName });
const passwordForm = z.object({
  currentPassword: z.string().min(1, "Enter your current password."),
  newPassword: z.string().min(passwordLength.min, `Your new password needs at least ${passwordLength.min} characters.`).max(passwordLength.max, `Your new password can have at most ${passwordLength.max} characters.`),
});

type Result = { section: "name" | "photo" | "password"; ok: boolean; message: string };

const reply = (result: Result, status = 200) => data(result, { status });

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context);
  const { auth, db, cipher, storage } = context.get(appServices);
  const form = await request.formData();
  const intent = form.get("intent");

  if (intent === "name") {
    const parsed = nameForm.safeParse(Object.fromEntries(form));
    if (!parsed.success) return reply({ section: "name", ok: false, message: parsed.error.issues[0]?.message ?? "" }, 400);
    // Better Auth's hooks check it again and copy it to the user document, as for every caller.
    await auth.api.updateUser({ body: { name: parsed.data.name }, headers: request.headers });
    return reply({ section: "name", ok: true, message: "Your name was saved." });
  }

  if (intent === "photo" || intent === "remove-photo") {
    const file = form.get("photo");
    const upload = intent === "remove-photo" ? null : file instanceof File ? Buffer.from(await file.arrayBuffer()) : Buffer.alloc(0);
    try {
      const url = await setProfilePhoto({ db, cipher, storage }, viewer.id, upload);
      return reply({ section: "photo", ok: true, message: url ? "Your new photo is in place." : "Your photo was removed." });
    } catch (error) {
      if (error instanceof PhotoError) return reply({ section: "photo", ok: false, message: error.message }, error.status);
      if (error instanceof StorageUnavailable) return reply({ section: "photo", ok: false, message: error.message }, 503);
      throw error;
    }
  }

  if (intent === "password") {
    const parsed = passwordForm.safeParse(Object.fromEntries(form));
    if (!parsed.success) return reply({ section: "password", ok: false, message: parsed.error.issues[0]?.message ?? "" }, 400);
    const result = await callAuth(
      auth.api.changePassword({ body: { ...parsed.data, revokeOtherSessions: true }, headers: request.headers, asResponse: true }),
    );
    if (!result.ok) return reply({ section: "password", ok: false, message: authErrorMessage("sign-in", result) }, result.status);
    // The change replaced this device's session: redirect so the page is loaded again with the new
    // cookie (answering this request with the page would run its loaders on the revoked one).
    throw redirect("/profile?password=changed#password", { headers: result.headers });
  }
  return reply({ section: "name", ok: false, message: "Unknown action." }, 400);
}

/** What is wrong with a chosen photo that the browser can tell before uploading it, or null. */
function photoProblem(file: File | undefined): string | null {
  if (!file) return "Choose a photo to upload.";
  if (!profilePhoto.types.includes(file.type)) return "Choose a JPEG, PNG or WebP image.";
  const megabytes = file.size / (1024 * 1024);
  // Rounded up, so a photo just over the limit never reads as "2.0 MB".
  if (file.size > profilePhoto.maxBytes) return `That photo is ${(Math.ceil(megabytes * 10) / 10).toFixed(1)} MB. Choose one under ${profilePhoto.maxMegabytes} MB.`;
  return null;
}

export default function ProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const result = (section: Result["section"]) =>
    actionData?.section === section ? <FormAlert tone={actionData.ok ? "success" : "error"}>{actionData.message}</FormAlert> : null;
  // Checked here so a photo the server would refuse is never sent (one over the body limit would get an error page).
  const [chosenPhotoProblem, setChosenPhotoProblem] = useState<string | null>(null);
  const checkPhoto = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setChosenPhotoProblem(file ? photoProblem(file) : null);
  };
  const refuseBadPhoto = (event: FormEvent<HTMLFormElement>) => {
    const input = event.currentTarget.elements.namedItem("photo");
    const problem = input instanceof HTMLInputElement ? photoProblem(input.files?.[0]) : null;
    setChosenPhotoProblem(problem);
    if (problem) event.preventDefault();
  };

  return (
    <section aria-labelledby="profile-heading" className="max-w-3xl">
      <h2 id="profile-heading" className="text-xl font-semibold tracking-tight text-slate-950 dark:text-white">
        Your profile
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">How you appear on Academy, and how you sign in.</p>
      <div className="mt-6 space-y-6">
        <SettingsSection id="photo" title="Photo">
          <div className="flex flex-wrap items-center gap-6">
            {loaderData.photo ? (
              <img src={loaderData.photo} alt={loaderData.name || "You"} width={96} height={96} className="size-24 rounded-full object-cover" />
            ) : (
              <span aria-hidden="true" className="grid size-24 place-items-center rounded-full bg-brand-600 text-2xl font-bold text-white">
                {initials(loaderData.name || loaderData.email)}
              </span>
            )}
            <Form method="post" encType="multipart/form-data" className="flex flex-1 flex-col gap-3" onSubmit={refuseBadPhoto}>
              <input type="hidden" name="intent" value="photo" />
              <label className="text-sm font-medium text-slate-800 dark:text-slate-200" htmlFor="photo-input">
                Upload a JPEG, PNG or WebP image, up to {profilePhoto.maxMegabytes} MB
              </label>
              <input
                id="photo-input"
                type="file"
                name="photo"
                accept={profilePhoto.types.join(",")}
                required
                onChange={checkPhoto}
                aria-invalid={chosenPhotoProblem ? true : undefined}
                className="text-sm text-slate-700 file:mr-3 file:rounded-full file:border-0 file:bg-slate-100 file:px-4 file:py-2 file:font-semibold dark:text-slate-300 dark:file:bg-slate-800 dark:file:text-white"
              />
              <div className="flex gap-3">
                <Button type="submit" disabled={busy("photo")}>
                  {busy("photo") ? "Uploading…" : "Upload photo"}
                </Button>
              </div>
            </Form>
            {loaderData.photo && (
              <Form method="post">
                <button type="submit" name="intent" value="remove-photo" className="text-sm font-medium text-red-700 hover:underline dark:text-red-300">
                  Remove photo
                </button>
              </Form>
            )}
          </div>
          <div className="mt-4">{chosenPhotoProblem ? <FormAlert>{chosenPhotoProblem}</FormAlert> : result("photo")}</div>
        </SettingsSection>

        <SettingsSection id="details" title="Name and e-mail">
          <Form method="post" className="space-y-4">
            {result("name")}
            <TextField label="Name" name="name" defaultValue={loaderData.name} autoComplete="name" required maxLength={nameLength.max} />
            <div>
              <p className="text-sm font-medium text-slate-800 dark:text-slate-200">E-mail</p>
              <p className="mt-1 flex flex-wrap items-center gap-2 text-slate-950 dark:text-white">
                {loaderData.email}
                <Badge tone={loaderData.emailVerified ? "success" : "warning"}>{loaderData.emailVerified ? "Verified" : "Not verified"}</Badge>
              </p>
            </div>
            {loaderData.memberSince && (
              <p className="text-sm text-slate-600 dark:text-slate-400">Member since {formatDate(loaderData.memberSince)}</p>
            )}
            <Button type="submit" name="intent" value="name" disabled={busy("name")}>
              {busy("name") ? "Saving…" : "Save name"}
            </Button>
          </Form>
        </SettingsSection>

        <SettingsSection id="password" title="Password">
          {loaderData.hasPassword ? (
            <Form method="post" className="space-y-4">
              {result("password") ??
                (loaderData.passwordChanged && <FormAlert tone="success">Your password was changed. Other devices were signed out.</FormAlert>)}
              <PasswordField label="Current password" name="currentPassword" autoComplete="current-password" minLength={1} />
              <PasswordField
                label="New password"
                name="newPassword"
                autoComplete="new-password"
                showStrength
                owner={{ name: loaderData.name, email: loaderData.email }}
              />
              <Button type="submit" name="intent" value="password" disabled={busy("password")}>
                {busy("password") ? "Changing…" : "Change password"}
              </Button>
            </Form>
          ) : (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              You sign in with Google, so there is no password to change here.
            </p>
          )}
        </SettingsSection>
      </div>
    </section>
  );
}
