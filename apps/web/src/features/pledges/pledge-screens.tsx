import { NO_ACTIVE_PLEDGE, NO_ACTIVE_PLEDGE_TITLE, PLEDGE_LINK_ERROR } from "@hearth/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams, useSearch } from "@tanstack/react-router";
import { CircleAlert, HeartHandshake, Link2, RotateCw, SearchX } from "lucide-react";
import { type ReactNode, useEffect } from "react";
import { errorMessage, isApiRequestError } from "../../lib/api.ts";
import { Button, buttonClass } from "../../ui/button.tsx";
import { Page } from "../../ui/page.tsx";
import { PageSpinner, Spinner } from "../../ui/spinner.tsx";
import { authorizeQuery, completeQuery, resultQuery, serviceLabel } from "./api.ts";
import { RedirectNote, useRedirectCountdown } from "./thank-you.tsx";

/** One outcome of the linking pages: an icon, a heading, what happened and what to do next. */
function Outcome({
  icon: Icon,
  tone,
  title,
  children,
  actions,
}: {
  icon: typeof HeartHandshake;
  tone: "accent" | "danger";
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Page width="narrow">
      <div className="flex flex-col items-center gap-4 py-10 text-center">
        <span
          className={
            tone === "accent"
              ? "flex size-16 items-center justify-center rounded-full bg-accent-soft text-accent-text"
              : "flex size-16 items-center justify-center rounded-full bg-danger-soft text-danger"
          }
        >
          <Icon aria-hidden className="size-8" />
        </span>
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
        {children ? <div className="flex flex-col gap-2 text-muted">{children}</div> : null}
        {actions ? <div className="mt-2 flex flex-wrap justify-center gap-2">{actions}</div> : null}
      </div>
    </Page>
  );
}

/** Starts linking again from the top: a fresh authorization at the platform (the spec's reload). */
const startAgain = (service: string) => () => window.location.assign(`/link/${encodeURIComponent(service)}`);

function LinkError({ service, detail }: { service: string; detail?: string | null }) {
  return (
    <Outcome
      icon={CircleAlert}
      tone="danger"
      title={PLEDGE_LINK_ERROR}
      actions={
        <Button onClick={startAgain(service)}>
          <RotateCw aria-hidden />
          Reload
        </Button>
      }
    >
      {detail && detail !== PLEDGE_LINK_ERROR ? <p>{detail}</p> : null}
    </Outcome>
  );
}

/** Sends the browser to the platform to authorize Hearth (it comes back here with a code). */
function GoAuthorize({ service }: { service: string }) {
  const authorize = useQuery(authorizeQuery(service));
  const url = authorize.data?.authorize_url;
  useEffect(() => {
    if (url) window.location.assign(url);
  }, [url]);
  if (authorize.isError) {
    if (isApiRequestError(authorize.error) && authorize.error.status === 404) {
      return (
        <Outcome
          icon={SearchX}
          tone="danger"
          title={`Linking with ${serviceLabel(service)} isn't available`}
          actions={
            <Button asChild variant="outline">
              <Link to="/">Go to Home</Link>
            </Button>
          }
        >
          <p>{errorMessage(authorize.error)}</p>
        </Outcome>
      );
    }
    return <LinkError service={service} detail={errorMessage(authorize.error)} />;
  }
  const name = authorize.data?.name ?? serviceLabel(service);
  return (
    <Outcome icon={Link2} tone="accent" title={`Link your ${name} pledge`}>
      <p className="inline-flex items-center justify-center gap-2">
        <Spinner size="sm" label={null} />
        Taking you to {name} to confirm…
      </p>
      {url ? (
        <p>
          Nothing happening?{" "}
          <a href={url} className="font-medium text-accent-text underline underline-offset-2">
            Continue to {name}
          </a>
        </p>
      ) : null}
    </Outcome>
  );
}

/** The return with `code`: linking (a spinner), then the result page by its transient id. */
function FinishLinking({ service, code, state }: { service: string; code: string; state: string }) {
  const navigate = useNavigate();
  const complete = useQuery(completeQuery(service, code, state));
  const transientId = complete.data?.transient_id;
  useEffect(() => {
    // Replace the address that holds the one-time code, so reloading never trades it twice.
    if (transientId) {
      void navigate({
        to: "/link/$pledgeService/$transientId",
        params: { pledgeService: service, transientId },
        replace: true,
      });
    }
  }, [transientId, service, navigate]);
  if (complete.isError) return <LinkError service={service} detail={errorMessage(complete.error)} />;
  return <PageSpinner label={`Linking your ${serviceLabel(service)} account`} />;
}

/** /link/{pledge_service}, and the authorization return to it (`?code=…&state=…`, or `?error=…`). */
export function LinkScreen() {
  const { pledgeService = "" } = useParams({ strict: false }) as { pledgeService?: string };
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const text = (key: string) => (typeof search[key] === "string" ? (search[key] as string) : "");
  if (text("error")) {
    // The member said no at the platform (or it failed there): nothing was linked.
    return (
      <LinkError
        service={pledgeService}
        detail={`${serviceLabel(pledgeService)} did not confirm the link.`}
      />
    );
  }
  if (text("code"))
    return <FinishLinking service={pledgeService} code={text("code")} state={text("state")} />;
  return <GoAuthorize service={pledgeService} />;
}

function LinkedThankYou({ message }: { message: string }) {
  const left = useRedirectCountdown("/");
  return (
    <Outcome
      icon={HeartHandshake}
      tone="accent"
      title="Thank you for your support!"
      actions={
        <Button asChild>
          <Link to="/">Go to Home now</Link>
        </Button>
      }
    >
      <p role="status">{message}</p>
      <RedirectNote left={left} where="Home" />
    </Outcome>
  );
}

/** /link/{pledge_service}/{transientId}: the linking result (success, invalid_pledge or error). */
export function LinkResultScreen() {
  const { pledgeService = "", transientId = "" } = useParams({ strict: false }) as {
    pledgeService?: string;
    transientId?: string;
  };
  const queryClient = useQueryClient();
  const result = useQuery(resultQuery(pledgeService, transientId));
  const success = result.data?.status === "success";
  useEffect(() => {
    // The account's tier may have changed: the session's permissions are read again.
    if (success) void queryClient.invalidateQueries({ queryKey: ["me"] });
  }, [success, queryClient]);

  if (result.isPending) return <PageSpinner label="Loading the linking result" />;
  if (result.isError) {
    const gone = isApiRequestError(result.error) && result.error.status === 404;
    return gone ? (
      <Outcome
        icon={SearchX}
        tone="danger"
        title="This linking result has expired"
        actions={<Button onClick={startAgain(pledgeService)}>Link again</Button>}
      >
        <p>{errorMessage(result.error)}</p>
      </Outcome>
    ) : (
      <LinkError service={pledgeService} detail={errorMessage(result.error)} />
    );
  }
  const { status, message, name } = result.data;
  if (status === "success") return <LinkedThankYou message={message} />;
  if (status === "invalid_pledge") {
    return (
      <Outcome
        icon={SearchX}
        tone="danger"
        title={NO_ACTIVE_PLEDGE_TITLE}
        actions={
          <>
            <Button onClick={startAgain(pledgeService)}>Try again</Button>
            <Button asChild variant="outline">
              <Link to="/">Go to Home</Link>
            </Button>
          </>
        }
      >
        <p>
          {message === NO_ACTIVE_PLEDGE
            ? `We couldn't find an active pledge on your ${name} account.`
            : message}
        </p>
      </Outcome>
    );
  }
  return <LinkError service={pledgeService} detail={message} />;
}

/**
 * The welcome route for the pledge-linking service: where the platform sends new patrons after
 * they pledge. It thanks them and moves on to the linking page after 10 s.
 */
export function PledgeWelcomeScreen() {
  const search = useSearch({ strict: false }) as { service?: unknown };
  const service =
    typeof search.service === "string" && /^[a-z0-9-]{1,32}$/.test(search.service)
      ? search.service
      : "patreon";
  const to = `/link/${service}`;
  const left = useRedirectCountdown(to);
  return (
    <Outcome
      icon={HeartHandshake}
      tone="accent"
      title="Thank you for pledging!"
      actions={
        <a href={to} className={buttonClass("primary")}>
          Link my account now
        </a>
      }
    >
      <p>Link your {serviceLabel(service)} account to unlock your tier here.</p>
      <RedirectNote left={left} where="the linking page" />
    </Outcome>
  );
}
