import { memo } from "react";
import Markdown, { type Components } from "react-markdown";
import rehypeSanitize from "rehype-sanitize";

/**
 * Message text as Markdown, safely: no raw HTML (react-markdown drops it and rehype-sanitize
 * strips anything else unsafe), no images (they would load from anywhere), links open in a new
 * tab without a referrer. Roleplay *actions* between asterisks are emphasis, styled as actions.
 */

/** Actions: italic, in a muted tint of the accent. */
const actionClass = "italic text-[color-mix(in_oklch,var(--accent-text)_55%,var(--muted))]";

const components: Components = {
  em: ({ node: _node, ...props }) => <em className={actionClass} {...props} />,
  strong: ({ node: _node, ...props }) => <strong className="font-semibold text-fg" {...props} />,
  a: ({ node: _node, href, children }) => (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className="text-accent-text underline underline-offset-2 hover:no-underline"
    >
      {children}
    </a>
  ),
  p: ({ node: _node, ...props }) => <p className="whitespace-pre-line" {...props} />,
  h1: ({ node: _node, ...props }) => <p className="text-lg font-semibold" {...props} />,
  h2: ({ node: _node, ...props }) => <p className="text-base font-semibold" {...props} />,
  h3: ({ node: _node, ...props }) => <p className="font-semibold" {...props} />,
  h4: ({ node: _node, ...props }) => <p className="font-semibold" {...props} />,
  h5: ({ node: _node, ...props }) => <p className="font-semibold" {...props} />,
  h6: ({ node: _node, ...props }) => <p className="font-semibold" {...props} />,
  ul: ({ node: _node, ...props }) => <ul className="list-disc pl-5" {...props} />,
  ol: ({ node: _node, ...props }) => <ol className="list-decimal pl-5" {...props} />,
  blockquote: ({ node: _node, ...props }) => (
    <blockquote className="border-l-2 border-border-strong pl-3 text-muted" {...props} />
  ),
  code: ({ node: _node, ...props }) => (
    <code className="rounded bg-surface-2 px-1 py-0.5 font-mono text-[0.9em]" {...props} />
  ),
  pre: ({ node: _node, ...props }) => (
    <pre
      className="overflow-x-auto rounded-lg bg-surface-2 p-3 text-sm [&_code]:bg-transparent [&_code]:p-0"
      {...props}
    />
  ),
  hr: () => <hr className="border-border" />,
};

const rehypePlugins = [rehypeSanitize];
const disallowed = ["img"];

/**
 * While a reply streams, an action whose closing asterisk hasn't arrived yet would show a raw
 * "*"; close it for display so the text is styled as it grows, not when the action ends.
 */
export function closeOpenAction(text: string): string {
  const singles = text.replace(/\*\*/g, "").split("*").length - 1;
  if (singles % 2 === 0) return text;
  const trimmed = text.trimEnd();
  return trimmed.endsWith("*") ? trimmed.slice(0, -1) : `${trimmed}*`;
}

export const MessageText = memo(function MessageText({
  text,
  streaming = false,
}: {
  text: string;
  streaming?: boolean;
}) {
  return (
    <div className="flex flex-col gap-3 break-words">
      <Markdown rehypePlugins={rehypePlugins} components={components} disallowedElements={disallowed}>
        {streaming ? closeOpenAction(text) : text}
      </Markdown>
    </div>
  );
});
