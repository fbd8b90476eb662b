import type { ReactNode } from "react";
import { Card, CardContent, CardDescription, CardHeader } from "../../ui/card.tsx";

/** The centred card both sign-in and sign-up screens sit in; its title is the page's h1. */
export function AuthCard({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description: ReactNode;
  children: ReactNode;
  footer: ReactNode;
}) {
  return (
    <div className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center sm:py-16">
      <div className="flex w-full max-w-md flex-col gap-5">
        <Card>
          <CardHeader>
            <h1 className="text-2xl leading-snug font-semibold tracking-tight">{title}</h1>
            <CardDescription className="text-base">{description}</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-5">{children}</CardContent>
        </Card>
        <div className="text-center text-sm text-muted">{footer}</div>
      </div>
    </div>
  );
}
