import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";

/** The look of a text input, text area or select; `compact` for small print beside other controls, `className` adds layout (width, margin, font). */
export function controlClass({ compact = false, className }: { compact?: boolean; className?: string } = {}): string {
  return [
    "rounded-lg border border-slate-300 bg-white px-3 text-slate-950 placeholder:text-slate-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-invalid:border-red-600 dark:border-slate-700 dark:bg-slate-900 dark:text-white dark:placeholder:text-slate-400 dark:aria-invalid:border-red-400",
    compact ? "py-2 text-sm" : "py-2.5 shadow-sm",
    className,
  ]
    .filter(Boolean)
    .join(" ");
}

export const labelClass = "block text-sm font-medium text-slate-800 dark:text-slate-200";

export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="mt-1 text-sm text-red-700 dark:text-red-300">
      {children}
    </p>
  );
}

interface FieldFrame {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  compact?: boolean;
}

/** Label, control, hint and error, with the control described by the hint and the error and marked invalid with it. */
function Field({ label, error, hint, id, render }: FieldFrame & { id?: string; render: (wiring: { id: string; "aria-invalid"?: true; "aria-describedby"?: string }) => ReactNode }) {
  const generated = useId();
  const controlId = id ?? generated;
  const describedBy = [error && `${controlId}-error`, hint && `${controlId}-hint`].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={controlId} className={labelClass}>
        {label}
      </label>
      {render({ id: controlId, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {hint && (
        <p id={`${controlId}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && <FieldError id={`${controlId}-error`}>{error}</FieldError>}
    </div>
  );
}

export function TextField({ label, error, hint, compact, id, className, ...input }: FieldFrame & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field
      label={label}
      error={error}
      hint={hint}
      id={id}
      render={(wiring) => <input {...wiring} className={controlClass({ compact, className: `mt-1 block w-full ${className ?? ""}`.trim() })} {...input} />}
    />
  );
}

export function TextArea({ label, error, hint, compact, id, className, ...textarea }: FieldFrame & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Field
      label={label}
      error={error}
      hint={hint}
      id={id}
      render={(wiring) => <textarea {...wiring} className={controlClass({ compact, className: `mt-1 block w-full ${className ?? ""}`.trim() })} {...textarea} />}
    />
  );
}

export function Select({ label, error, hint, compact, id, className, children, ...select }: FieldFrame & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <Field
      label={label}
      error={error}
      hint={hint}
      id={id}
      render={(wiring) => (
        <select {...wiring} className={controlClass({ compact, className: `mt-1 block w-full ${className ?? ""}`.trim() })} {...select}>
          {children}
        </select>
      )}
    />
  );
}
