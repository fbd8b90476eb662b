import type { PageSlug } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { LoadErrorBanner } from "../../features/shell/load-error-banner.tsx";
import { pageQuery } from "../../features/site/api.ts";
import { MarkdownDocument } from "../../features/site/markdown-document.tsx";
import { Page } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";

/** /privacy, /terms, /refund, /2257 and the contribute page: the operator's Markdown (§2.2 Other pages). */
export function MarkdownPage({ slug, what }: { slug: PageSlug; what: string }) {
  const page = useQuery(pageQuery(slug));
  return (
    <Page width="medium">
      {page.isPending ? (
        <PageSpinner />
      ) : page.isError ? (
        <LoadErrorBanner
          title={`Could not load ${what}.`}
          error={page.error}
          onRetry={() => void page.refetch()}
        />
      ) : (
        <article>
          <MarkdownDocument markdown={page.data.markdown} />
        </article>
      )}
    </Page>
  );
}
