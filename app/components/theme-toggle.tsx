import { type ThemePreference, useThemePreference } from "../lib/theme.ts";
import { MonitorIcon, MoonIcon, SunIcon } from "./icons.tsx";

const options: { value: ThemePreference; label: string; Icon: typeof SunIcon }[] = [
  { value: "light", label: "Light", Icon: SunIcon },
  { value: "dark", label: "Dark", Icon: MoonIcon },
  { value: "system", label: "System", Icon: MonitorIcon },
];

/** Three-way theme switch; each option is a toggle button so keyboard and screen readers see the state. */
export function ThemeToggle() {
  const [preference, setPreference] = useThemePreference();
  return (
    <fieldset className="inline-flex rounded-full border border-slate-200 bg-slate-50 p-0.5 dark:border-slate-700 dark:bg-slate-900">
      <legend className="sr-only">Theme</legend>
      {options.map(({ value, label, Icon }) => (
        <button
          key={value}
          type="button"
          aria-pressed={preference === value}
          title={`${label} theme`}
          onClick={() => setPreference(value)}
          className="theme-option"
        >
          <Icon className="size-4" />
          <span className="sr-only">{label} theme</span>
        </button>
      ))}
    </fieldset>
  );
}
