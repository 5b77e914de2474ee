import type { ComponentProps } from "react";
import { Link, type LinkProps } from "react-router";

export type ButtonVariant = "primary" | "secondary" | "danger" | "danger-outline";
export type ButtonSize = "2xs" | "xs" | "sm" | "md" | "lg" | "xl";

export interface ButtonStyle {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Layout only (display, margin, width); the look comes from the variant and size. */
  className?: string;
}

const variants: Record<ButtonVariant, string> = {
  primary: "bg-brand-600 text-white hover:bg-brand-700",
  secondary: "border border-slate-300 text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:text-slate-100 dark:hover:bg-slate-800",
  danger: "bg-red-700 text-white hover:bg-red-800",
  "danger-outline": "border border-red-300 text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950",
};

const sizes: Record<ButtonSize, string> = {
  "2xs": "px-3 py-1.5 text-xs",
  xs: "px-4 py-1.5 text-sm",
  sm: "px-4 py-2 text-sm",
  md: "px-5 py-2.5 text-sm",
  lg: "px-5 py-3",
  xl: "px-6 py-3",
};

/** The class list of a button's look, for elements the components below do not render: a dialog's trigger, a plain <a> to a download or an e-mail address. */
export function buttonClass({ variant = "primary", size = "md", className }: ButtonStyle = {}): string {
  return ["rounded-full font-semibold disabled:opacity-60", variants[variant], sizes[size], className].filter(Boolean).join(" ");
}

/** A button; `type` defaults to "button" so only a button that says so submits its form. Its variant is in `data-variant`. */
export function Button({ variant = "primary", size, className, type = "button", ...props }: ComponentProps<"button"> & ButtonStyle) {
  return <button type={type} data-variant={variant} className={buttonClass({ variant, size, className })} {...props} />;
}

/** A link that looks like a button: it goes somewhere, so it stays a link for assistive technology. */
export function ButtonLink({ variant = "primary", size, className, ...props }: LinkProps & ButtonStyle) {
  return <Link data-variant={variant} className={buttonClass({ variant, size, className })} {...props} />;
}
