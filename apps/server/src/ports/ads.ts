/**
 * Where the ads in chat come from (issue 17, chat-and-characters §7). The default source is the
 * operator's house ads, read from Hearth's own database (features/ads); an external ad server
 * (adapters/openrtb-ads.ts) is used only when the operator turns it on, and is the only source
 * that is sent anything about the chat.
 */

/** What an ad request may carry. `context` is read only for a source that says it needs it. */
export interface AdRequest {
  conversationId: string;
  /** The slot follows this many messages. */
  after: number;
  character: { id: string; tags: string[]; isNsfw: boolean; language: string };
  /** The chat's context, for an external server: read lazily, only when that source is on. */
  context: () => Promise<AdContext>;
}

/** What the spec says an ad network receives: the last 10 messages, character fields, a hashed user id. */
export interface AdContext {
  messages: { role: "user" | "bot"; content: string }[];
  character: { id: string; name: string; title: string; tags: string[]; isNsfw: boolean; language: string };
  /** A salted hash of the member's id: the same member gets the same value, never the id. */
  userHash: string;
}

export interface ServedAd {
  /** The ad's id as its source knows it (a house ad's UUID, a network's creative id). */
  id: string;
  /** Where it came from, reported back with views and clicks (`house`, or the network's code). */
  code: string;
  text: string;
  imageUrl: string | null;
  linkUrl: string;
  advertiser: string | null;
}

export interface AdSource {
  readonly kind: "house" | "external";
  /** The ad for this slot, or null for none. Never throws: no ad is the answer to any failure. */
  pick(request: AdRequest): Promise<ServedAd | null>;
}
