import { Download, Smartphone } from "lucide-react";
import { useSite } from "../features/site/api.ts";
import { EmptyState } from "../ui/empty-state.tsx";
import { Page, PageHeader } from "../ui/page.tsx";
import { PageSpinner } from "../ui/spinner.tsx";

const STEPS = [
  {
    title: "Uninstall the old app",
    body: "If an earlier version of the app is installed, uninstall it first.",
  },
  { title: "Download the file", body: "Use the download button on this page to get the installer." },
  { title: "Open the downloaded file", body: "Open it from your browser's downloads or the notification." },
  {
    title: "Allow installs from this source",
    body: "If Android asks, allow your browser to install unknown apps in its settings, then go back.",
  },
  {
    title: "Approve by pressing Install",
    body: "Confirm the installation and open the app when it is done.",
  },
] as const;

/**
 * The animated guide: a phone whose screen walks through the five steps. The cycle runs only when
 * the person has not asked for reduced motion (Tailwind's motion-safe); otherwise it stays still.
 */
function InstallGuide() {
  return (
    <div aria-hidden className="mx-auto flex w-40 flex-col items-center">
      <div className="relative h-72 w-40 overflow-hidden rounded-[2rem] border-4 border-border-strong bg-surface-2 p-3">
        <div className="flex h-full flex-col gap-2 motion-safe:animate-[install-guide_10s_steps(5)_infinite]">
          {STEPS.map((step, i) => (
            <div key={step.title} className="flex h-full shrink-0 flex-col items-center justify-center gap-2">
              <span className="flex size-10 items-center justify-center rounded-full bg-accent text-accent-fg font-semibold">
                {i + 1}
              </span>
              <span className="text-center text-xs text-muted">{step.title}</span>
            </div>
          ))}
        </div>
      </div>
      <style>
        {"@keyframes install-guide { from { transform: translateY(0) } to { transform: translateY(-100%) } }"}
      </style>
    </div>
  );
}

/** /download and /apps/android (accounts-billing-admin §2.2 Android install page). */
export default function DownloadScreen() {
  const site = useSite();
  if (!site) return <PageSpinner />;
  const android = site.mobile_applications.find((app) => app.type === "android");
  return (
    <Page width="medium">
      <PageHeader title={`Install ${site.brand.name} on Android`} description="Five steps, about a minute." />
      {android ? (
        <div className="flex flex-col gap-8 sm:flex-row sm:items-start">
          <ol className="flex flex-1 flex-col gap-4">
            {STEPS.map((step, i) => (
              <li key={step.title} className="flex gap-3">
                <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-accent-soft font-semibold text-accent-text">
                  {i + 1}
                </span>
                <div className="flex flex-col gap-1">
                  <h2 className="font-semibold">{step.title}</h2>
                  <p className="text-muted">{step.body}</p>
                  {i === 1 ? (
                    <a
                      href={android.download_url}
                      className="mt-1 inline-flex h-10 w-fit items-center gap-2 rounded-lg bg-accent px-4 text-sm font-medium text-accent-fg shadow-sm hover:brightness-110"
                    >
                      <Download aria-hidden className="size-4" />
                      Download the app
                    </a>
                  ) : null}
                </div>
              </li>
            ))}
          </ol>
          <InstallGuide />
        </div>
      ) : (
        <EmptyState icon={Smartphone} title="No app to download yet" headingLevel={2}>
          This site has no Android application configured. Use it in your browser meanwhile.
        </EmptyState>
      )}
    </Page>
  );
}
