import { Link } from "@tanstack/react-router";
import { Bot, type LucideIcon, MessagesSquare, Server, Sparkles, UserRound } from "lucide-react";
import { useGuestSignIn } from "../features/auth/use-guest-sign-in.ts";
import { useAppConfig, useMe } from "../lib/session.ts";
import { Banner } from "../ui/banner.tsx";
import { Button } from "../ui/button.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { Page } from "../ui/page.tsx";

const howItWorks: Array<{ icon: LucideIcon; title: string; text: string }> = [
  {
    icon: Sparkles,
    title: "Characters with a personality",
    text: "Each character has its own voice, a scenario and a greeting, written by the people who make them.",
  },
  {
    icon: MessagesSquare,
    title: "Conversations that flow",
    text: "Chat or roleplay for as long as you like. Replies are written for you as you go.",
  },
  {
    icon: Server,
    title: "Run by people you know",
    text: "This site runs on Hearth, a platform anyone can host. Its operators choose the AI models and keep the data.",
  },
];

function SignedOutActions() {
  const { auth } = useAppConfig();
  const guest = useGuestSignIn("/");
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap gap-2">
        <Button asChild size="lg">
          <Link to="/sign-up">Create an account</Link>
        </Button>
        {auth.guests ? (
          <Button variant="outline" size="lg" loading={guest.pending} onClick={guest.start}>
            {guest.pending ? null : <UserRound aria-hidden />}
            Continue as guest
          </Button>
        ) : (
          <Button asChild variant="outline" size="lg">
            <Link to="/sign-in">Sign in</Link>
          </Button>
        )}
      </div>
      {guest.error ? <Banner tone="danger">{guest.error}</Banner> : null}
    </div>
  );
}

/** The welcome page: what this place is, and an honest empty state until characters exist. */
export default function HomeScreen() {
  const { brand } = useAppConfig();
  const me = useMe();
  const heading = me && !me.is_guest ? `Welcome, ${me.name}` : `Welcome to ${brand.name}`;

  return (
    <Page>
      <section
        aria-labelledby="home-heading"
        className="relative overflow-hidden rounded-2xl border border-border bg-surface px-5 py-10 sm:px-10 sm:py-14"
      >
        {/* A soft glow of the brand colour; decoration only. */}
        <div
          aria-hidden
          className="pointer-events-none absolute -top-32 -right-24 size-96 rounded-full bg-accent opacity-15 blur-3xl"
        />
        <div className="relative flex max-w-2xl flex-col gap-5">
          <span className="inline-flex w-fit items-center gap-2 rounded-full bg-accent-soft px-3 py-1 text-sm font-medium text-accent-text">
            <Bot aria-hidden className="size-4" />
            AI character chat and roleplay
          </span>
          <h1
            id="home-heading"
            className="text-3xl leading-tight font-semibold tracking-tight text-balance sm:text-5xl"
          >
            {heading}
          </h1>
          <p className="text-base leading-relaxed text-muted sm:text-lg">
            {brand.name} is a place to talk with AI characters: companions, storytellers, game masters and
            anyone else their creators dream up. Pick a character, say hello, and see where the story goes.
          </p>
          {me ? null : <SignedOutActions />}
        </div>
      </section>

      <section aria-label="How it works" className="mt-8 grid gap-4 sm:mt-10 md:grid-cols-3">
        {howItWorks.map((item) => (
          <div
            key={item.title}
            className="flex flex-col gap-2 rounded-xl border border-border bg-surface p-5"
          >
            <item.icon aria-hidden className="size-5 text-accent-text" />
            <h2 className="font-semibold">{item.title}</h2>
            <p className="text-sm leading-relaxed text-muted">{item.text}</p>
          </div>
        ))}
      </section>

      <section aria-labelledby="characters-heading" className="mt-10 flex flex-col gap-4 sm:mt-12">
        <h2 id="characters-heading" className="text-xl font-semibold tracking-tight">
          Characters
        </h2>
        <EmptyState icon={Bot} title="No characters yet">
          Nobody has added a character to {brand.name} so far. When characters arrive, they'll be listed here.
        </EmptyState>
      </section>
    </Page>
  );
}
