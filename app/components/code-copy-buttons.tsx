import { useEffect } from "react";
import { createRoot } from "react-dom/client";
import { CopyButton } from "./ui/copy-button.tsx";

/**
 * A Copy button in the bar over each code block (`.code-block` and its `.code-bar`, as the lesson
 * renderer writes them) of the server-rendered `html` in the element `containerId`. The HTML stays
 * as the server wrote it: the buttons are added into it once the page's scripts run, and go with it
 * when `html` changes.
 */
export function CodeCopyButtons({ containerId, html }: { containerId: string; html: string }) {
  useEffect(() => {
    const container = document.getElementById(containerId);
    if (!container || !html) return;
    const added = [...container.querySelectorAll<HTMLElement>(".code-block")].flatMap((block, i) => {
      const code = block.querySelector("pre")?.textContent;
      const bar = block.querySelector(".code-bar");
      if (!code || !bar) return [];
      const slot = document.createElement("div");
      slot.className = "code-copy";
      bar.append(slot);
      const root = createRoot(slot);
      root.render(<CopyButton value={code} label={`code example ${i + 1}`} />);
      return [{ slot, root }];
    });
    return () => {
      for (const { slot, root } of added) {
        slot.remove();
        // Not while React is still committing the change that removed the buttons.
        queueMicrotask(() => root.unmount());
      }
    };
  }, [containerId, html]);
  return null;
}
