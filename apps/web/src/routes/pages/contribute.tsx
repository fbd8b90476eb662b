import { MarkdownPage } from "./markdown-page.tsx";

export default function ContributePage() {
  return <MarkdownPage slug="contribute" what="the contribute page" />;
}
