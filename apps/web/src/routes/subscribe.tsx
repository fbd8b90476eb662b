import { useParams, useSearch } from "@tanstack/react-router";
import { parseFrequency, subscribeSearch } from "../features/subscribe/frequency.ts";
import { SubscribePage } from "../features/subscribe/subscribe-page.tsx";

/** /subscribe and /subscribe/{frequency} (accounts-billing-admin §2.2); monthly by default. */
export default function SubscribeScreen() {
  const { frequency } = useParams({ strict: false }) as { frequency?: string };
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  return <SubscribePage frequency={parseFrequency(frequency)} search={subscribeSearch(search)} />;
}
