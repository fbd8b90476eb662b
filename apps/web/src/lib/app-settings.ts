import { type AppSettings, adEndpoints } from "@hearth/contract";
import { queryOptions, useSuspenseQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { call } from "./client.ts";

/**
 * GET /api/app-settings (issue 17): flags and constants from the operator's configuration,
 * loaded once at start by the root route beside /api/config and /api/me.
 */
export const appSettingsQuery = queryOptions({
  queryKey: ["app-settings"],
  queryFn: ({ signal }) => call(adEndpoints.appSettings, { signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

/** Suspends only on first use: the root route loads the settings before any screen renders. */
export function useAppSettings(): AppSettings {
  return useSuspenseQuery(appSettingsQuery).data;
}

/**
 * A short notice ("Ad saved.") that clears itself after the operator's notification duration
 * (HEARTH_NOTIFICATION_MS, chat-and-characters §9 "Notification duration is configurable").
 */
export function useNotice(): [string, (text: string) => void] {
  const duration = useAppSettings().limits.notification_ms;
  const [notice, setNotice] = useState("");
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(""), duration);
    return () => clearTimeout(timer);
  }, [notice, duration]);
  return [notice, setNotice];
}
