import { initials } from "../../common/format.ts";

/** The signed-in person's photo, or their initials in a circle, in the header; decorative, the name is read out beside it. */
export function Avatar({ name, image = null }: { name: string; image?: string | null }) {
  if (image) {
    return <img src={image} alt="" aria-hidden="true" width={32} height={32} className="size-8 shrink-0 rounded-full object-cover" />;
  }
  return (
    <span aria-hidden="true" className="grid size-8 shrink-0 place-items-center rounded-full bg-brand-600 text-xs font-bold text-white">
      {initials(name)}
    </span>
  );
}
