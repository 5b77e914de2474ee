import { useEffect, useId, useRef, useState } from "react";
import { Form } from "react-router";
import { StarIcon } from "../icons.tsx";
import { Button } from "../ui/button.tsx";
import { controlClass } from "../ui/field.tsx";

export interface ReviewFormErrors {
  rating?: string;
  comment?: string;
}

/** A star count from a form value, or null when it is not one. */
function stars(value: string | undefined): number | null {
  return value && /^[1-5]$/.test(value) ? Number(value) : null;
}

const ratingWords = ["", "Poor", "Fair", "Good", "Very good", "Excellent"];

/**
 * The learner's rating and comment. Posts to the page's action; the comment's length is counted as
 * it is typed (the server checks it again, trimmed). The controls are uncontrolled, so a star
 * chosen or a comment typed before the page's script arrived is kept and read back once it has.
 */
export function ReviewForm({
  initial,
  errors = {},
  maxLength,
  existing,
  pending,
}: {
  initial: { rating?: string; comment?: string };
  errors?: ReviewFormErrors;
  maxLength: number;
  existing: boolean;
  pending: boolean;
}) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [rating, setRating] = useState(stars(initial.rating));
  const [comment, setComment] = useState(initial.comment ?? "");
  useEffect(() => {
    const fields = form.current && new FormData(form.current);
    if (!fields) return;
    setRating(stars(fields.get("rating")?.toString()));
    setComment(fields.get("comment")?.toString() ?? "");
  }, []);
  const length = comment.trim().length;
  const over = length - maxLength;
  return (
    <Form ref={form} method="post" preventScrollReset className="space-y-5" noValidate>
      <input type="hidden" name="intent" value="save" />
      <fieldset aria-describedby={errors.rating ? `${id}-rating-error` : undefined}>
        <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">Your rating</legend>
        <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1">
          <div className="flex">
            {[1, 2, 3, 4, 5].map((n) => (
              <label
                key={n}
                className="cursor-pointer rounded-md p-1 has-checked:bg-amber-50 has-focus-visible:ring-2 has-focus-visible:ring-brand-500 dark:has-checked:bg-slate-800"
              >
                <input
                  type="radio"
                  name="rating"
                  value={n}
                  defaultChecked={stars(initial.rating) === n}
                  onChange={() => setRating(n)}
                  required
                  className="sr-only"
                />
                <StarIcon
                  fill="currentColor"
                  strokeWidth={1.2}
                  className={`size-8 ${rating !== null && n <= rating ? "text-amber-500 dark:text-amber-400" : "text-slate-300 dark:text-slate-600"}`}
                />
                <span className="sr-only">
                  {n} {n === 1 ? "star" : "stars"}, {ratingWords[n]}
                </span>
              </label>
            ))}
          </div>
          <p aria-hidden="true" className="text-sm text-slate-600 dark:text-slate-400">
            {rating ? `${rating} out of 5 · ${ratingWords[rating]}` : "Choose from 1 to 5 stars"}
          </p>
        </div>
        {errors.rating && (
          <p id={`${id}-rating-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
            {errors.rating}
          </p>
        )}
      </fieldset>

      <div>
        <label htmlFor={`${id}-comment`} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
          Your comment
        </label>
        <textarea
          id={`${id}-comment`}
          name="comment"
          rows={6}
          required
          defaultValue={initial.comment}
          onChange={(event) => setComment(event.target.value)}
          aria-invalid={errors.comment || over > 0 ? true : undefined}
          aria-describedby={[`${id}-count`, errors.comment && `${id}-comment-error`].filter(Boolean).join(" ")}
          placeholder="What did you learn? What would you tell someone thinking of taking this course?"
          className={controlClass({ className: "mt-1 block w-full" })}
        />
        <p id={`${id}-count`} className={`mt-1 text-xs ${over > 0 ? "font-semibold text-red-700 dark:text-red-300" : "text-slate-600 dark:text-slate-400"}`}>
          {length.toLocaleString("en-IN")} of {maxLength.toLocaleString("en-IN")} characters
          {over > 0 && ` · ${over.toLocaleString("en-IN")} too many`}
        </p>
        {errors.comment && (
          <p id={`${id}-comment-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
            {errors.comment}
          </p>
        )}
      </div>

      <Button
        type="submit"
        disabled={pending}
      >
        {pending ? "Saving…" : existing ? "Update review" : "Post review"}
      </Button>
    </Form>
  );
}
