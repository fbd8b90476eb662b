import { MarkdownPage } from "./markdown-page.tsx";

export default function TermsPage() {
  return <MarkdownPage slug="terms" what="the terms of service" />;
}
