import { initials } from "../lib/format.ts";

/** A person's initials in a circle; decorative, the name is always written beside it. */
export function Avatar({ name }: { name: string }) {
  return (
    <span
      aria-hidden="true"
      className="grid size-14 shrink-0 place-items-center rounded-full bg-brand-600 text-lg font-bold text-white"
    >
      {initials(name)}
    </span>
  );
}
