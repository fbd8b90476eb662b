import Markdown, { type Components } from "react-markdown";
import rehypeSanitize from "rehype-sanitize";

/**
 * An operator's page as Markdown, safely: raw HTML is dropped and rehype-sanitize strips anything
 * else unsafe (the same pair as chat messages). Unlike messages, a page keeps real headings, so its
 * outline is navigable; links to other sites open in a new tab.
 */
const components: Components = {
  h1: ({ node: _node, ...props }) => (
    <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl" {...props} />
  ),
  h2: ({ node: _node, ...props }) => <h2 className="mt-4 text-xl font-semibold" {...props} />,
  h3: ({ node: _node, ...props }) => <h3 className="mt-2 text-lg font-semibold" {...props} />,
  p: ({ node: _node, ...props }) => <p className="leading-relaxed" {...props} />,
  ul: ({ node: _node, ...props }) => <ul className="list-disc space-y-1 pl-6" {...props} />,
  ol: ({ node: _node, ...props }) => <ol className="list-decimal space-y-1 pl-6" {...props} />,
  code: ({ node: _node, ...props }) => (
    <code className="rounded bg-surface-2 px-1 py-0.5 font-mono text-[0.9em]" {...props} />
  ),
  a: ({ node: _node, href, children }) => {
    const external = Boolean(href && /^[a-z]+:/i.test(href));
    return (
      <a
        href={href}
        className="text-accent-text underline underline-offset-2 hover:no-underline"
        {...(external ? { target: "_blank", rel: "noopener noreferrer nofollow" } : {})}
      >
        {children}
      </a>
    );
  },
  img: () => null,
};

export function MarkdownDocument({ markdown }: { markdown: string }) {
  return (
    <div className="flex flex-col gap-4">
      <Markdown rehypePlugins={[rehypeSanitize]} components={components}>
        {markdown}
      </Markdown>
    </div>
  );
}
