import { initials } from "../lib/format.ts";

const sizes = {
  sm: { className: "size-8 text-xs", pixels: 32 },
  md: { className: "size-14 text-lg", pixels: 56 },
};

/** A person's photo, or their initials in a circle; decorative, the name is always written or read out beside it. */
export function Avatar({ name, image = null, size = "md" }: { name: string; image?: string | null; size?: keyof typeof sizes }) {
  if (image) {
    const { className, pixels } = sizes[size];
    return <img src={image} alt="" aria-hidden="true" width={pixels} height={pixels} className={`${className} shrink-0 rounded-full object-cover`} />;
  }
  return (
    <span aria-hidden="true" className={`grid ${sizes[size].className} shrink-0 place-items-center rounded-full bg-brand-600 font-bold text-white`}>
      {initials(name)}
    </span>
  );
}
