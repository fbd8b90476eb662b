import { Link } from "@tanstack/react-router";
import { FileUp, type LucideIcon, PenLine, Share2, Sparkles } from "lucide-react";
import { useAppConfig } from "../../lib/session.ts";
import { Button } from "../../ui/button.tsx";
import { Page } from "../../ui/page.tsx";

const features: Array<{ icon: LucideIcon; title: string; text: string }> = [
  {
    icon: PenLine,
    title: "Write a character",
    text: "Give it a personality, a scenario and a greeting. A short guide helps you along.",
  },
  {
    icon: FileUp,
    title: "Bring your cards",
    text: "Import PNG, JSON or CharX character cards, and export yours the same way.",
  },
  {
    icon: Share2,
    title: "Share it or keep it",
    text: "Publish it for everyone, share an unlisted link, or keep it to yourself.",
  },
  {
    icon: Sparkles,
    title: "Drafts that wait for you",
    text: "Your work is saved on your device as you type, so you can finish it later.",
  },
];

/** What signed-out visitors and guests see on the create page (accounts-billing-admin §2.2). */
export function SignedOutCreate({ redirectTo }: { redirectTo: string }) {
  const { brand } = useAppConfig();
  return (
    <Page className="flex flex-col gap-8">
      <section
        aria-labelledby="create-hero-heading"
        className="relative overflow-hidden rounded-2xl border border-border bg-surface px-5 py-10 text-center sm:px-10 sm:py-14"
      >
        <div
          aria-hidden
          className="pointer-events-none absolute -top-40 left-1/2 size-[28rem] -translate-x-1/2 rounded-full bg-accent opacity-15 blur-3xl"
        />
        <div className="relative mx-auto flex max-w-2xl flex-col items-center gap-5">
          <h1
            id="create-hero-heading"
            className="text-3xl leading-tight font-semibold tracking-tight text-balance sm:text-5xl"
          >
            Create your own chatbot
          </h1>
          <p className="text-base leading-relaxed text-muted sm:text-lg">
            Bring a character to life on {brand.name}: write who they are, and chat with them or share them
            with everyone. It's free with an account.
          </p>
          <Button asChild size="lg">
            <Link to="/sign-up" search={{ redirect: redirectTo }}>
              Unlock Bot Creation
            </Link>
          </Button>
          <p className="text-sm text-muted">
            Already have an account?{" "}
            <Link
              to="/sign-in"
              search={{ redirect: redirectTo }}
              className="font-medium text-accent-text hover:underline"
            >
              Sign in
            </Link>
          </p>
        </div>
      </section>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {features.map((feature) => (
          <li
            key={feature.title}
            className="flex flex-col gap-2 rounded-xl border border-border bg-surface p-5"
          >
            <feature.icon aria-hidden className="size-5 text-accent-text" />
            <h2 className="font-semibold">{feature.title}</h2>
            <p className="text-sm leading-relaxed text-muted">{feature.text}</p>
          </li>
        ))}
      </ul>
    </Page>
  );
}
