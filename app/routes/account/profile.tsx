import { useState, type ChangeEvent, type FormEvent } from "react";
import { Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { authErrorMessage, callAuth } from "../../../server/auth/index.ts";
import { appServices, viewerContext } from "../../../server/context.ts";
import { profileName, readUserDocument, setProfilePhoto } from "../../../server/users/index.ts";
import { SettingsSection } from "../../components/settings-section.tsx";
import { PasswordField } from "../../components/form-controls.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { nameLength, passwordLength, profilePhoto } from "../../../common/limits.ts";
import { formatDate, initials } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/profile";
import { Button } from "../../components/ui/button.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { replyFor, replyProblem } from "../../../common/forms.ts";
import { attemptFor, readForm, refuse, succeed } from "../forms.server.ts";

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

const profileForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("name"), name: profileName }),
  // Anything but a file is an empty upload, which the photo check refuses in its own words.
  z.object({ intent: z.literal("photo"), photo: z.unknown().transform((photo) => (photo instanceof File ? photo : null)) }),
  z.object({ intent: z.literal("remove-photo") }),
  z.object({
    intent: z.literal("password"),
    currentPassword: z.string().min(1, "Enter your current password."),
    newPassword: z.string().min(passwordLength.min, `Your new password needs at least ${passwordLength.min} characters.`).max(passwordLength.max, `Your new password can have at most ${passwordLength.max} characters.`),
  }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context);
  const { auth, db, cipher, storage } = context.get(appServices);
  const form = await readForm(request, profileForm);
  if (!form.ok) return form.reply;
  const input = form.value;
  switch (input.intent) {
    case "name":
      // Better Auth's hooks check it again and copy it to the user document, as for every caller.
      await auth.api.updateUser({ body: { name: input.name }, headers: request.headers });
      return succeed(form, "Your name was saved.");
    case "photo":
    case "remove-photo": {
      const upload = input.intent === "photo" ? Buffer.from((await input.photo?.arrayBuffer()) ?? new ArrayBuffer(0)) : null;
      const stored = await attemptFor(form, () => setProfilePhoto({ db, cipher, storage }, viewer.id, upload));
      if (!stored.ok) return stored.reply;
      return succeed(form, stored.value ? "Your new photo is in place." : "Your photo was removed.");
    }
    case "password": {
      const { currentPassword, newPassword } = input;
      const result = await callAuth(
        auth.api.changePassword({ body: { currentPassword, newPassword, revokeOtherSessions: true }, headers: request.headers, asResponse: true }),
      );
      if (!result.ok) return refuse(form, { status: result.status, message: authErrorMessage("sign-in", result) });
      // The change replaced this device's session: redirect so the page is loaded again with the new
      // cookie (answering this request with the page would run its loaders on the revoked one).
      throw redirect("/profile?password=changed#password", { headers: result.headers });
    }
  }
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
  const result = (...intents: string[]) => {
    const reply = replyFor(actionData, ...intents);
    const text = reply?.ok ? reply.message : replyProblem(reply);
    return reply && text ? <FormAlert tone={reply.ok ? "success" : "error"}>{text}</FormAlert> : null;
  };
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
          <div className="mt-4">{chosenPhotoProblem ? <FormAlert>{chosenPhotoProblem}</FormAlert> : result("photo", "remove-photo")}</div>
        </SettingsSection>

        <SettingsSection id="details" title="Name and e-mail">
          <Form method="post" className="space-y-4" noValidate>
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
            <Form method="post" className="space-y-4" noValidate>
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
