import type { ExportedChat } from "./types.ts";

/**
 * The readable exports: Markdown, and a printable HTML page. Every text a person wrote (or a
 * model) is escaped, so a message holding HTML shows as text and never runs or loads anything.
 */

export const escapeHtml = (text: string): string =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

/** HTML in a message shows as text in renderers that would otherwise run it. */
const mdText = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Markdown's own escape, for a name in a heading, and HTML escaped for renderers that allow it. */
const mdInline = (text: string): string => mdText(text).replace(/([\\`*_[\]#|])/g, "\\$1");

const when = (date: Date) => date.toISOString().replace("T", " ").slice(0, 16);

const heading = (chat: ExportedChat) => chat.title || `Chat with ${chat.characterName}`;

const speaker = (chat: ExportedChat, role: "user" | "bot") =>
  role === "user" ? chat.persona.name : chat.characterName;

export function writeMarkdown(chat: ExportedChat): string {
  const out = [
    `# ${mdInline(heading(chat))}`,
    "",
    `${mdInline(chat.persona.name)} and ${mdInline(chat.characterName)}, started ${when(chat.createdAt)} UTC, ${chat.messages.length} messages.`,
    "",
  ];
  for (const m of chat.messages) {
    const more =
      m.alternatives.length > 1 ? ` (alternative ${m.alternativeIndex + 1} of ${m.alternatives.length})` : "";
    out.push(`**${mdInline(speaker(chat, m.role))}** · ${when(m.createdAt)}${more}`, "");
    // Each line of the message as a quote, so its own Markdown stays inside it.
    out.push(
      ...mdText(m.content)
        .split("\n")
        .map((line) => `> ${line}`),
      "",
    );
  }
  return out.join("\n");
}

const PRINT_CSS = `
  :root { color-scheme: light; }
  body { font: 16px/1.5 system-ui, sans-serif; color: #1a1a1a; background: #fff; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; }
  h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
  .meta, .hint { color: #555; margin: 0 0 1.5rem; }
  ol { list-style: none; padding: 0; margin: 0; }
  li { margin: 0 0 1rem; padding: .75rem 1rem; border: 1px solid #ddd; border-radius: .5rem; break-inside: avoid; }
  li.user { background: #f3f6fb; }
  .who { font-weight: 600; }
  .when { color: #555; font-size: .875rem; margin-left: .5rem; }
  .text { white-space: pre-wrap; overflow-wrap: anywhere; margin: .25rem 0 0; }
  @media print {
    body { margin: 0; max-width: none; font-size: 11pt; }
    .hint { display: none; }
    li { border-color: #999; }
  }
`;

/** A whole HTML page for reading and printing (the browser's Print makes a PDF). */
export function writePrintablePage(chat: ExportedChat): string {
  const items = chat.messages
    .map((m) => {
      const more =
        m.alternatives.length > 1
          ? ` · alternative ${m.alternativeIndex + 1} of ${m.alternatives.length}`
          : "";
      return `<li class="${m.role}"><span class="who">${escapeHtml(speaker(chat, m.role))}</span><span class="when">${when(m.createdAt)} UTC${more}</span><p class="text">${escapeHtml(m.content)}</p></li>`;
    })
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(heading(chat))}</title>
<style>${PRINT_CSS}</style>
</head>
<body>
<main>
<h1>${escapeHtml(heading(chat))}</h1>
<p class="meta">${escapeHtml(chat.persona.name)} and ${escapeHtml(chat.characterName)}, started ${when(chat.createdAt)} UTC, ${chat.messages.length} messages.</p>
<p class="hint">Use your browser's Print command to print this chat or save it as a PDF.</p>
<ol>
${items}
</ol>
</main>
</body>
</html>
`;
}
