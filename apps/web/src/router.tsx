import type { AppConfig, Me } from "@hearth/contract";
import type { QueryClient } from "@tanstack/react-query";
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  type RouteComponent,
  redirect,
  useMatch,
  useRouteContext,
  useRouter,
} from "@tanstack/react-router";
import { useEffect, useRef } from "react";
import { AppShell, useNavigating } from "./features/shell/app-shell.tsx";
import { appSettingsQuery } from "./lib/app-settings.ts";
import { applyBrand, pageTitle } from "./lib/brand.ts";
import { appConfigQuery, meQuery, useAppConfig, useMe } from "./lib/session.ts";
import { ErrorScreen } from "./routes/error-screen.tsx";
import { type GuardDecision, guardRoute, restrictionOf } from "./routes/guard.ts";
import { LimitedAccessScreen } from "./routes/limited-access.tsx";
import { NotFoundScreen } from "./routes/not-found.tsx";
import { RestrictionScreen } from "./routes/restriction.tsx";
import { type RouteEntry, type RouteLayout, routeTable } from "./routes/table.ts";
import { PageSpinner } from "./ui/spinner.tsx";

export interface RouterContext {
  queryClient: QueryClient;
}

function Root() {
  const config = useAppConfig();
  const me = useMe();
  const router = useRouter();

  useEffect(() => applyBrand(config.brand), [config.brand]);

  // The session can change under an open page (expired, or signed out in another tab): re-run
  // the guards so the page can't keep showing what the new session may not see.
  const sessionKey = me ? `${me.id}:${me.permissions.join(",")}` : "signed-out";
  const previousSessionKey = useRef(sessionKey);
  useEffect(() => {
    if (previousSessionKey.current === sessionKey) return;
    previousSessionKey.current = sessionKey;
    void router.invalidate();
  }, [sessionKey, router]);

  const restriction = restrictionOf(me);
  if (restriction) return <RestrictionScreen restriction={restriction} />;
  return <Outlet />;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  // Config and session are needed by every screen and guard, so they load before any route.
  beforeLoad: async ({ context }): Promise<{ config: AppConfig; me: Me | null }> => {
    const [config, me] = await Promise.all([
      context.queryClient.ensureQueryData(appConfigQuery),
      context.queryClient.ensureQueryData({ ...meQuery, revalidateIfStale: true }),
      context.queryClient.ensureQueryData(appSettingsQuery),
    ]);
    return { config, me };
  },
  component: Root,
  notFoundComponent: NotFoundScreen,
  errorComponent: ErrorScreen,
});

const layoutRoutes = {
  main: createRoute({
    getParentRoute: () => rootRoute,
    id: "main",
    component: () => (
      <AppShell>
        <Outlet />
      </AppShell>
    ),
  }),
  noFooter: createRoute({
    getParentRoute: () => rootRoute,
    id: "no-footer",
    component: () => (
      <AppShell footer={false}>
        <Outlet />
      </AppShell>
    ),
  }),
  // No shell at all: a page shown inside another page's frame (the 3-D Secure iframe).
  bare: createRoute({
    getParentRoute: () => rootRoute,
    id: "bare",
    component: BareLayout,
  }),
};

declare module "@tanstack/react-router" {
  interface StaticDataRouteOption {
    /** The route's lazily loaded screen and tab title, from the route table. */
    screen?: RouteComponent;
    title?: string;
  }
}

function BareLayout() {
  const navigating = useNavigating();
  return (
    <main id="main" aria-busy={navigating || undefined} className="flex min-h-dvh flex-col">
      <Outlet />
    </main>
  );
}

/** Renders the route's lazy screen, or the limited-access page when the guard said so. */
function GuardedScreen() {
  const { screen: Screen, title } = useMatch({ strict: false, select: (match) => match.staticData });
  const decision = useRouteContext({ strict: false, select: (context) => context.decision }) as
    | GuardDecision
    | undefined;
  const { brand } = useAppConfig();
  useEffect(() => {
    document.title = pageTitle(title ?? null, brand.name);
  }, [title, brand.name]);
  if (decision?.kind === "limitedAccess") return <LimitedAccessScreen />;
  return Screen ? <Screen /> : <NotFoundScreen />;
}

/**
 * A chunk that fails to load makes the router reload the page once (it assumes a new deploy).
 * Offline, that reload would only trade our error screen for the browser's, so the error is
 * renamed to skip it; the error screen then shows its offline variant.
 */
function offlineAware(load: NonNullable<RouteEntry["screen"]>): NonNullable<RouteEntry["screen"]> {
  return () =>
    load().catch((error: unknown) => {
      if (navigator.onLine) throw error;
      throw new Error(`Offline: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    });
}

/** Only table entries with a screen are routes; the rest fall through to not-found. */
const screenRoutesIn = (layout: RouteLayout) =>
  routeTable.flatMap((entry) => {
    if (!entry.screen || entry.layout !== layout) return [];
    return [
      createRoute({
        getParentRoute: () => layoutRoutes[layout],
        path: entry.path,
        beforeLoad: ({ context, location }) => {
          const decision = guardRoute(entry, context.me, location.href);
          switch (decision.kind) {
            case "signIn":
              throw redirect({ to: "/sign-in", search: { redirect: decision.redirect }, replace: true });
            case "accessDenied":
              throw redirect({ to: "/accessDenied", replace: true });
            case "continue":
              throw redirect({ href: decision.to, replace: true });
            default:
              return { decision };
          }
        },
        staticData: { screen: lazyRouteComponent(offlineAware(entry.screen)), title: entry.title },
        // Fetch the screen's chunk while the route loads, so render doesn't suspend on it.
        loader: ({ route }) => route.options.staticData?.screen?.preload?.(),
        component: GuardedScreen,
      }),
    ];
  });

const routeTree = rootRoute.addChildren([
  layoutRoutes.main.addChildren(screenRoutesIn("main")),
  layoutRoutes.noFooter.addChildren(screenRoutesIn("noFooter")),
  layoutRoutes.bare.addChildren(screenRoutesIn("bare")),
]);

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: "intent",
    defaultPendingComponent: PageSpinner,
    defaultPendingMs: 300,
    defaultErrorComponent: ErrorScreen,
    defaultNotFoundComponent: NotFoundScreen,
    scrollRestoration: true,
  });
}
