import type { MouseEvent } from "react";
import { useEffect } from "react";
import { popupMessage } from "../lib/popup-message.ts";
import { buttonClass } from "./ui/button.tsx";

/**
 * "Continue with Google": a popup where the browser allows one, else (or without JavaScript) an
 * ordinary redirect through the same start URL.
 */
export function GoogleButton({ redirectTo }: { redirectTo: string }) {
  const start = `/auth/google?redirectTo=${encodeURIComponent(redirectTo)}`;

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      const data = event.data as { type?: string; redirectTo?: string } | null;
      if (data?.type === popupMessage) window.location.assign(data.redirectTo ?? "/");
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, []);

  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    const width = 480;
    const height = 640;
    const left = window.screenX + (window.outerWidth - width) / 2;
    const top = window.screenY + (window.outerHeight - height) / 2;
    const popup = window.open(`${start}&popup=1`, "academy-google", `popup,width=${width},height=${height},left=${left},top=${top}`);
    if (popup) event.preventDefault();
  };

  return (
    <a
      href={start}
      onClick={onClick}
      className={buttonClass({ variant: "secondary", size: "lg", className: "flex w-full items-center justify-center gap-3" })}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5">
        <path fill="#4285F4" d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.5h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.3-2.1 3.5-5.2 3.5-8.8Z" />
        <path fill="#34A853" d="M12 24c3.2 0 6-1.1 7.9-2.9l-3.9-3a7.2 7.2 0 0 1-10.7-3.8h-4v3.1A12 12 0 0 0 12 24Z" />
        <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8l4-3.1Z" />
        <path fill="#EA4335" d="M12 4.8c1.8 0 3.4.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1A7.2 7.2 0 0 1 12 4.8Z" />
      </svg>
      Continue with Google
    </a>
  );
}
