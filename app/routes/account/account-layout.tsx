import { type ReactNode, useEffect, useRef } from "react";
import { Outlet, useLocation, useRouteLoaderData } from "react-router";
import { Container } from "../../components/page-intro.tsx";
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
  const { pathname } = useLocation();
  const tabBar = useRef<HTMLElement>(null);
  // On a phone the tabs scroll sideways: bring the current one into view (the scrollbar shows there is more).
  useEffect(() => {
    const bar = tabBar.current;
    const current = bar?.querySelector<HTMLElement>(`a[href="${pathname}"]`);
    if (bar && current) bar.scrollTo({ left: current.offsetLeft - bar.clientWidth / 2 + current.offsetWidth / 2 });
  }, [pathname]);
  return (
    <>
      <div className="border-b border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/50">
        <Container className="pt-8 sm:pt-10">
          <h1 className="text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl dark:text-white">Your account</h1>
          {viewer && (
            <p className="mt-2 truncate text-sm text-slate-600 dark:text-slate-400">
              Signed in as <span className="font-medium text-slate-800 dark:text-slate-200">{viewer.email}</span>
            </p>
          )}
          {/* On phones the tabs scroll sideways rather than wrap; the negative margin lets them run to the screen edge. */}
          <nav ref={tabBar} aria-label="Your account" className="-mx-4 mt-6 overflow-x-auto px-4 [scrollbar-width:thin] sm:mx-0 sm:px-0">
            <ul className="flex w-max min-w-full items-end">
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
            </ul>
          </nav>
        </Container>
      </div>
      <Container className="py-8 sm:py-10">{children}</Container>
    </>
  );
}
