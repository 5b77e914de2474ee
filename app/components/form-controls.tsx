import { useEffect, useId, useRef, useState, type InputHTMLAttributes, type ReactNode } from "react";
import { replyProblem, type FormReply } from "../../common/forms.ts";
import { passwordLength } from "../../common/limits.ts";
import { lengthVerdict, loadPasswordCheck, type PasswordCheck, type PasswordLevel, type PasswordOwner } from "../../common/password-policy.ts";
import { FormAlert } from "./form-alert.tsx";
import { buttonClass } from "./ui/button.tsx";
import { cardClass } from "./ui/card.tsx";
import { controlClass, FieldError, labelClass } from "./ui/field.tsx";

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string };

const meterColors: Record<PasswordLevel, string> = {
  0: "",
  1: "bg-red-600 dark:bg-red-500",
  2: "bg-amber-500",
  3: "bg-emerald-500",
  4: "bg-emerald-600 dark:bg-emerald-400",
};

const meterText: Record<PasswordLevel, string> = {
  0: "text-slate-600 dark:text-slate-400",
  1: "font-medium text-red-700 dark:text-red-300",
  2: "font-medium text-amber-800 dark:text-amber-300",
  3: "font-medium text-emerald-800 dark:text-emerald-300",
  4: "font-medium text-emerald-800 dark:text-emerald-300",
};

/** The form's own name and e-mail fields, when it has them (the sign-up form), so the meter judges as the server will. */
function formOwner(input: HTMLInputElement): PasswordOwner {
  const value = (name: string) => {
    const field = input.form?.elements.namedItem(name);
    return field instanceof HTMLInputElement ? field.value : null;
  };
  return { name: value("name"), email: value("email") };
}

/**
 * A password input, with a strength meter for a new password. The meter applies the server's own
 * policy (common/password-policy.ts); its dictionaries load when the field is first used.
 */
export function PasswordField({
  label,
  error,
  showStrength = false,
  owner,
  ...input
}: FieldProps & { showStrength?: boolean; owner?: PasswordOwner }) {
  const [visible, setVisible] = useState(false);
  const [typed, setTyped] = useState<{ value: string; owner: PasswordOwner }>({ value: "", owner: {} });
  const [check, setCheck] = useState<PasswordCheck | null>(null);
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const load = () => {
    if (showStrength && !check) void loadPasswordCheck().then((loaded) => setCheck(() => loaded));
  };
  // A password typed before the page's script arrived is in the field but was never seen by onChange.
  useEffect(() => {
    const early = field.current;
    if (!showStrength || !early?.value) return;
    void loadPasswordCheck().then((loaded) => setCheck(() => loaded));
    setTyped({ value: early.value, owner: formOwner(early) });
  }, [showStrength]);
  const verdict = typed.value ? (lengthVerdict(typed.value) ?? check?.(typed.value, owner ?? typed.owner) ?? null) : null;
  const level = verdict?.level ?? 0;
  return (
    <div>
      <div className="flex items-baseline justify-between">
        <label htmlFor={id} className={labelClass}>
          {label}
        </label>
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-controls={id}
          aria-pressed={visible}
          className="text-xs font-medium text-brand-700 hover:underline dark:text-brand-300"
        >
          {visible ? "Hide password" : "Show password"}
        </button>
      </div>
      <input
        ref={field}
        id={id}
        type={visible ? "text" : "password"}
        minLength={passwordLength.min}
        maxLength={passwordLength.max}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={[error && `${id}-error`, showStrength && `${id}-strength`].filter(Boolean).join(" ") || undefined}
        onFocus={load}
        onChange={(event) => {
          load();
          setTyped({ value: event.target.value, owner: formOwner(event.target) });
        }}
        className={controlClass({ className: "mt-1 block w-full" })}
        {...input}
      />
      {showStrength && (
        <div id={`${id}-strength`} aria-live="polite" className="mt-2">
          <div className="flex gap-1" aria-hidden="true">
            {([1, 2, 3, 4] as const).map((n) => (
              <span key={n} className={`h-1 flex-1 rounded-full ${level >= n ? meterColors[level] : "bg-slate-200 dark:bg-slate-700"}`} />
            ))}
          </div>
          <p className={`mt-1 text-xs ${meterText[level]}`}>
            {verdict?.label ?? "At least 8 characters. A few random words make a strong, memorable password."}
          </p>
        </div>
      )}
      {error && <FieldError id={`${id}-error`}>{error}</FieldError>}
    </div>
  );
}

/**
 * What became of a form that shows one alert: its success message, or why it was refused (the form's
 * sentence, or else the first field's, so a reason the server trims to nothing is not refused in silence).
 */
export function ReplyAlert({ reply }: { reply: FormReply | undefined }) {
  const text = reply?.ok ? reply.message : replyProblem(reply);
  return text ? <FormAlert tone={reply?.ok ? "success" : "error"}>{text}</FormAlert> : null;
}

export function SubmitButton({ children, pending, ...props }: { children: ReactNode; pending?: boolean } & InputHTMLAttributes<HTMLButtonElement>) {
  return (
    <button
      type="submit"
      disabled={pending}
      className={buttonClass({ size: "lg", className: "flex w-full items-center justify-center" })}
      {...(props as object)}
    >
      {children}
    </button>
  );
}

export function AuthCard({ title, lead, children }: { title: string; lead?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-md px-4 py-12 sm:py-16">
      <div className={cardClass({ raised: true, className: "p-6 sm:p-8" })}>
        <h1 className="text-2xl font-bold tracking-tight text-slate-950 dark:text-white">{title}</h1>
        {lead && <div className="mt-2 text-sm text-slate-600 dark:text-slate-400">{lead}</div>}
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}
