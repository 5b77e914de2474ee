import type { ReactNode } from "react";
import { Outlet, useRouteLoaderData } from "react-router";
import { AreaChrome } from "../../components/area-chrome.tsx";
import type { RootData } from "../../lib/seo.ts";
import { RouteError } from "../../components/not-found.tsx";
import { TabLink } from "../../components/ui/tabs.tsx";
import type { Route } from "./+types/account-layout";

const tabs = [
  { to: "/account", label: "Overview", end: true },
  { to: "/account/courses", label: "Courses", end: false },
  { to: "/account/orders", label: "Orders", end: false },
  { to: "/account/payments", label: "Payments", end: false },
  { to: "/account/services", label: "Services", end: false },
  { to: "/notes", label: "Notes", end: false },
];

/** The signed-in area: one heading and the tabs between its pages. The root middleware keeps signed-out visitors out. */
export default function AccountLayout() {
  return (
    <AccountChrome>
      <Outlet />
    </AccountChrome>
  );
}

/** An error on an account page keeps the account's heading and tabs, so the way to the other pages stays. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccountChrome>
      <RouteError error={error} inArea />
    </AccountChrome>
  );
}

function AccountChrome({ children }: { children: ReactNode }) {
  const viewer = useRouteLoaderData<RootData>("root")?.viewer;
  return (
    <AreaChrome
      heading={<h1 className="text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl dark:text-white">Your account</h1>}
      detail={viewer && (
        <>
          Signed in as <span className="font-medium text-slate-800 dark:text-slate-200">{viewer.email}</span>
        </>
      )}
      label="Your account"
      tabs={
        <>
          {tabs.map((tab) => (
            <li key={tab.to}>
              <TabLink to={tab.to} end={tab.end}>
                {tab.label}
              </TabLink>
            </li>
          ))}
          <li className="ml-auto pl-4" aria-hidden="true">
            <span className="mb-3 block h-5 w-px bg-slate-300 dark:bg-slate-700" />
          </li>
          <li>
            <TabLink to="/profile">Profile</TabLink>
          </li>
          <li>
            <TabLink to="/settings">Settings</TabLink>
          </li>
        </>
      }
    >
      {children}
    </AreaChrome>
  );
}
