import { Link } from "@tanstack/react-router";
import { Bot, type LucideIcon, MessagesSquare, Plus, Server, Sparkles, UserRound } from "lucide-react";
import { DemoModelNotice } from "../features/admin-models/demo-model-notice.tsx";
import { useGuestSignIn } from "../features/auth/use-guest-sign-in.ts";
import { BrowseCharacters } from "../features/characters/browse.tsx";
import { useAppConfig, useMe } from "../lib/session.ts";
import { Banner } from "../ui/banner.tsx";
import { Button } from "../ui/button.tsx";
import { Page } from "../ui/page.tsx";

const howItWorks: Array<{ icon: LucideIcon; title: string; text: string }> = [
  {
    icon: Sparkles,
    title: "Characters with a personality",
    text: "Each has its own voice, scenario and greeting, written by the people who make them.",
  },
  {
    icon: MessagesSquare,
    title: "Conversations that flow",
    text: "Chat or roleplay for as long as you like.",
  },
  {
    icon: Server,
    title: "Run by people you know",
    text: "This site runs on Hearth: its operators choose the AI models and keep the data.",
  },
];

function SignedOutActions() {
  const { auth } = useAppConfig();
  const guest = useGuestSignIn("/");
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap gap-2">
        <Button asChild>
          <Link to="/sign-up">Create an account</Link>
        </Button>
        {auth.guests ? (
          <Button variant="outline" loading={guest.pending} onClick={guest.start}>
            {guest.pending ? null : <UserRound aria-hidden />}
            Continue as guest
          </Button>
        ) : (
          <Button asChild variant="outline">
            <Link to="/sign-in">Sign in</Link>
          </Button>
        )}
      </div>
      {guest.error ? <Banner tone="danger">{guest.error}</Banner> : null}
    </div>
  );
}

/** Home: a short welcome, then the browse grid of characters. */
export default function HomeScreen() {
  const { brand } = useAppConfig();
  const me = useMe();
  const member = me !== null && !me.is_guest;
  const canCreate = member && me.permissions.includes("create_character");

  return (
    <Page className="flex flex-col gap-8 sm:gap-10">
      <DemoModelNotice />
      {member ? (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div className="flex flex-col gap-1">
            <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Welcome, {me.name}</h1>
            <p className="text-muted">Pick a character and say hello.</p>
          </div>
          {canCreate ? (
            <Button asChild variant="outline">
              <Link to="/chatbot/create">
                <Plus aria-hidden />
                Create a chatbot
              </Link>
            </Button>
          ) : null}
        </div>
      ) : (
        <section
          aria-labelledby="home-heading"
          className="relative overflow-hidden rounded-2xl border border-border bg-surface px-5 py-7 sm:px-8 sm:py-9"
        >
          {/* A soft glow of the brand colour; decoration only. */}
          <div
            aria-hidden
            className="pointer-events-none absolute -top-32 -right-24 size-96 rounded-full bg-accent opacity-15 blur-3xl"
          />
          <div className="relative flex flex-col gap-6 lg:flex-row lg:items-end lg:justify-between">
            <div className="flex max-w-xl flex-col gap-4">
              <span className="inline-flex w-fit items-center gap-2 rounded-full bg-accent-soft px-3 py-1 text-sm font-medium text-accent-text">
                <Bot aria-hidden className="size-4" />
                AI character chat and roleplay
              </span>
              <h1
                id="home-heading"
                className="text-3xl leading-tight font-semibold tracking-tight text-balance sm:text-4xl"
              >
                Welcome to {brand.name}
              </h1>
              <p className="leading-relaxed text-muted">
                Talk with AI characters: companions, storytellers, game masters and anyone else their creators
                dream up. Pick one, say hello, and see where the story goes.
              </p>
              {me ? null : <SignedOutActions />}
            </div>
            <ul aria-label="How it works" className="grid gap-3 sm:grid-cols-3 lg:max-w-md lg:grid-cols-1">
              {howItWorks.map((item) => (
                <li key={item.title} className="flex gap-3 text-sm">
                  <item.icon aria-hidden className="mt-0.5 size-4 shrink-0 text-accent-text" />
                  <span>
                    <span className="font-medium">{item.title}.</span>{" "}
                    <span className="text-muted">{item.text}</span>
                  </span>
                </li>
              ))}
            </ul>
          </div>
        </section>
      )}

      <BrowseCharacters headingId="characters-heading" />
    </Page>
  );
}
