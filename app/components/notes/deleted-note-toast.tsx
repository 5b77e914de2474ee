import { useEffect, useRef, useState } from "react";
import { Form } from "react-router";

const visibleMs = 10_000;

/**
 * "Note deleted — Undo" for ten seconds. Focus moves to Undo (the deleted note's editor is gone);
 * while focus stays in the toast it stays, so a keyboard user never loses the chance to undo.
 */
export function DeletedNoteToast({ noteId }: { noteId: string }) {
  const [open, setOpen] = useState(true);
  const toast = useRef<HTMLDivElement>(null);
  const undo = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    undo.current?.focus();
  }, []);
  useEffect(() => {
    if (!open) return;
    let timer: ReturnType<typeof setTimeout>;
    const hideUnlessFocused = () => {
      if (toast.current?.contains(document.activeElement)) timer = setTimeout(hideUnlessFocused, 1000);
      else setOpen(false);
    };
    timer = setTimeout(hideUnlessFocused, visibleMs);
    return () => clearTimeout(timer);
  }, [open]);

  if (!open) return null;
  return (
    <div
      ref={toast}
      role="status"
      className="fixed inset-x-4 bottom-4 z-40 mx-auto flex max-w-md items-center justify-between gap-4 rounded-xl bg-slate-900 px-4 py-3 text-sm text-white shadow-lg dark:bg-slate-100 dark:text-slate-950"
    >
      <span>Note deleted</span>
      <span className="flex items-center gap-2">
        <Form method="post">
          <input type="hidden" name="noteId" value={noteId} />
          <button
            ref={undo}
            type="submit"
            name="intent"
            value="restore"
            className="rounded-full px-3 py-1 font-semibold text-brand-300 underline-offset-2 hover:underline dark:text-brand-700"
          >
            Undo
          </button>
        </Form>
        <button type="button" onClick={() => setOpen(false)} className="rounded-full px-2 py-1 text-slate-300 hover:text-white dark:text-slate-600 dark:hover:text-slate-950">
          <span aria-hidden="true">✕</span>
          <span className="sr-only">Dismiss</span>
        </button>
      </span>
    </div>
  );
}
