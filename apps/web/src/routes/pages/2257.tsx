import { MarkdownPage } from "./markdown-page.tsx";

export default function Statement2257Page() {
  return <MarkdownPage slug="2257" what="the 2257 statement" />;
}
