import { type Ad, adEndpoints, adSlotAfter } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { X } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useAppSettings } from "../../lib/app-settings.ts";
import { call } from "../../lib/client.ts";
import { useMe } from "../../lib/session.ts";
import { Button } from "../../ui/button.tsx";
import { sendEvent } from "./events.ts";

/**
 * Ads in the chat's message list (issue 17 item 1; chat-and-characters §6 display_ads, §9): for
 * members holding display_ads, never in partner mode, after more than the configured minimum of
 * messages (and more than two), every `interval` messages. A slot takes room only once its ad is
 * there (nothing is drawn for a slot without one), and then one fixed height, whether the ad has
 * an image or not and after it is dismissed, so the messages around it do not move again.
 */

/** The slot's height in pixels: the same before, during and after the ad. */
export const AD_SLOT_HEIGHT = 112;

/** Ad views already reported in this page's life, so a row scrolled out and back counts once. */
const seen = new Set<string>();
/** Slots dismissed in this page's life. */
const dismissed = new Set<string>();

export interface AdPlacement {
  conversationId: string;
  characterId: string;
  /** The slot follows this many messages of the chat. */
  after: number;
  /** The message it follows (reported with the ad's events). */
  messageId: string;
}

/** Whether ads may appear for this viewer at all, and the rule for where. */
export function useAdRules() {
  const settings = useAppSettings();
  const me = useMe();
  const ads = settings.limits.ads;
  const on = ads.enabled && !settings.partner && Boolean(me?.permissions.includes("display_ads"));
  return useMemo(() => (on ? (after: number) => adSlotAfter(after, ads) : null), [on, ads]);
}

export function AdSlot({ placement }: { placement: AdPlacement }) {
  const key = `${placement.conversationId}:${placement.after}`;
  const [hidden, setHidden] = useState(() => dismissed.has(key));
  const slot = useQuery({
    queryKey: ["ads", "slot", placement.conversationId, placement.after],
    queryFn: ({ signal }) =>
      call(adEndpoints.slot, {
        query: { conversation_id: placement.conversationId, after: placement.after },
        signal,
      }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const ad = slot.data?.ad ?? null;
  // No ad for this slot (none fits, or the server says not here), or not yet: nothing is drawn.
  if (!ad) return null;
  return (
    <div className="mx-auto w-full max-w-[800px] px-3 pb-5 sm:px-5">
      <aside
        aria-label="Advertisement"
        data-ad-slot={placement.after}
        className="relative flex items-center gap-3 overflow-hidden rounded-lg border border-border bg-surface px-3"
        style={{ height: AD_SLOT_HEIGHT - 20 }}
      >
        {hidden ? (
          <p className="w-full text-center text-xs text-muted">Ad hidden</p>
        ) : (
          <AdBody
            ad={ad}
            placement={placement}
            onDismiss={() => {
              dismissed.add(key);
              setHidden(true);
            }}
          />
        )}
      </aside>
    </div>
  );
}

const report = (name: "adView" | "adClick", ad: Ad, placement: AdPlacement) =>
  sendEvent({
    event_name: name,
    ad_id: ad.id,
    code: ad.code,
    message_id: placement.messageId,
    content: ad.text.slice(0, 1000),
    character_id: placement.characterId,
    conversation_id: placement.conversationId,
  });

function AdBody({ ad, placement, onDismiss }: { ad: Ad; placement: AdPlacement; onDismiss: () => void }) {
  const box = useRef<HTMLDivElement>(null);

  // A view is an ad at least half on screen, reported once.
  useEffect(() => {
    const element = box.current;
    const key = `${placement.conversationId}:${placement.after}:${ad.id}`;
    if (!element || seen.has(key)) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting) || seen.has(key)) return;
        seen.add(key);
        observer.disconnect();
        report("adView", ad, placement);
      },
      { threshold: 0.5 },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ad, placement]);

  return (
    <div ref={box} className="flex min-w-0 flex-1 items-center gap-3">
      {ad.image_url ? (
        <img
          src={ad.image_url}
          alt=""
          width={64}
          height={64}
          className="size-16 shrink-0 rounded-md object-cover"
        />
      ) : null}
      <div className="min-w-0 flex-1">
        <p className="text-xs font-semibold text-muted uppercase">
          Sponsored
          {ad.advertiser ? <span className="font-normal normal-case"> · {ad.advertiser}</span> : null}
        </p>
        <a
          href={ad.link_url}
          target="_blank"
          rel="sponsored noopener noreferrer"
          onClick={() => report("adClick", ad, placement)}
          className="line-clamp-2 text-sm underline-offset-2 hover:underline"
        >
          {ad.text}
        </a>
      </div>
      <Button variant="ghost" size="icon" aria-label="Hide this ad" title="Hide this ad" onClick={onDismiss}>
        <X aria-hidden />
      </Button>
    </div>
  );
}
