import { LORE_TEST_TEXT_MAX, type LoreTestResult } from "@hearth/contract";
import { useMutation } from "@tanstack/react-query";
import { FlaskConical, SearchX } from "lucide-react";
import { useId, useRef, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Badge } from "../../ui/badge.tsx";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { CountedField, describedBy, TextArea } from "../characters/form-controls.tsx";
import { testLorebook } from "./api.ts";
import {
  type BookValues,
  type EntryValues,
  entryTitle,
  positionBadge,
  sortedEntries,
  testableBook,
} from "./book-values.ts";

const n = (value: number) => value.toLocaleString("en-US");

/** Why an entry came in, in words. */
function reasonText(reason: LoreTestResult["activated"][number]) {
  if (reason.reason === "constant") return "Constant";
  if (reason.reason === "recursion") {
    return reason.matched_key
      ? `Key “${reason.matched_key}” in another entry's text`
      : "Another entry's text";
  }
  return reason.matched_key ? `Key “${reason.matched_key}”` : "A key matched";
}

/**
 * "Which entries would this message activate?": sends the editor's current book, saved or not,
 * with the text to the server's activation rules and lists the answer.
 */
export function TestBox({ book, headingLevel }: { book: BookValues; headingLevel: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const id = useId();
  const [text, setText] = useState("");
  const results = useRef<HTMLDivElement>(null);
  const test = useMutation({
    mutationFn: (input: { book: BookValues; text: string; skipped: EntryValues[] }) =>
      testLorebook(input.book, input.text).then((result) => ({ result, skipped: input.skipped })),
    onSuccess: () => requestAnimationFrame(() => results.current?.focus()),
  });
  const tooLong = text.length > LORE_TEST_TEXT_MAX;
  const canRun = text.trim() !== "" && !tooLong && !test.isPending;

  const run = () => {
    if (!canRun) return;
    const { book: sendable, skipped } = testableBook(book);
    test.mutate({ book: sendable, text, skipped });
  };

  // Entry names as the editor's list shows them (a first key, or "Entry 2" by prompt order).
  const titleOf = (entryId: string, fallback: string) => {
    const inOrder = sortedEntries(book.entries);
    const index = inOrder.findIndex((e) => e.id === entryId);
    const entry = inOrder[index];
    return entry ? entryTitle(entry, index) : fallback || "An entry";
  };

  const data = test.data;
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="flex flex-col gap-4 rounded-xl border border-border bg-surface-2/40 p-4 sm:p-5"
      data-lore-test
    >
      <div className="flex flex-col gap-1">
        <Heading id={`${id}-heading`} className="flex items-center gap-2 text-base font-semibold">
          <FlaskConical aria-hidden className="size-4 text-accent-text" />
          Test a message
        </Heading>
        <p className="text-sm text-muted">
          Which entries would this message activate? Uses the book as it is now, saved or not.
        </p>
      </div>
      <CountedField
        id={`${id}-text`}
        label="Message to test"
        length={text.length}
        max={LORE_TEST_TEXT_MAX}
        error={tooLong ? `At most ${n(LORE_TEST_TEXT_MAX)} characters` : null}
      >
        <TextArea
          {...describedBy(`${id}-text`, { error: tooLong ? "x" : null, count: true })}
          value={text}
          rows={3}
          className="min-h-20"
          placeholder="The dragon circles the old lighthouse…"
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              run();
            }
          }}
        />
      </CountedField>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-muted">Ctrl+Enter tests too.</p>
        <Button size="sm" disabled={!canRun} loading={test.isPending} onClick={run}>
          {test.isPending ? null : <FlaskConical aria-hidden />}
          Test
        </Button>
      </div>
      <div ref={results} tabIndex={-1} aria-live="polite" className="flex flex-col gap-3 outline-none">
        {test.isError ? (
          <Banner tone="danger" title="The test didn't run.">
            {errorMessage(test.error)}
          </Banner>
        ) : null}
        {data && !test.isPending ? (
          <TestResults
            subheading={headingLevel === 2 ? "h3" : "h4"}
            result={data.result}
            skipped={data.skipped.map((e) => titleOf(e.id, e.name))}
            titleOf={titleOf}
          />
        ) : null}
      </div>
    </section>
  );
}

function TestResults({
  subheading: Subheading,
  result,
  skipped,
  titleOf,
}: {
  subheading: "h3" | "h4";
  result: LoreTestResult;
  skipped: string[];
  titleOf: (id: string, fallback: string) => string;
}) {
  return (
    <div className="flex flex-col gap-3" data-lore-test-results>
      {result.activated.length === 0 ? (
        <div className="flex items-center gap-3 rounded-lg border border-dashed border-border-strong p-4 text-sm">
          <SearchX aria-hidden className="size-5 shrink-0 text-muted" />
          <span>No entry would activate.</span>
        </div>
      ) : (
        <div className="flex flex-col gap-2">
          <Subheading className="text-sm font-medium">
            Would activate{" "}
            <span className="font-normal text-muted">
              ({result.activated.length}, {n(result.tokens)} tokens)
            </span>
          </Subheading>
          <ul className="flex flex-col gap-1.5" aria-label="Entries that would activate">
            {result.activated.map((entry) => (
              <li
                key={entry.id}
                className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 rounded-lg border border-border bg-surface px-3 py-2 text-sm"
                data-activated={titleOf(entry.id, entry.name)}
              >
                <span className="flex min-w-0 flex-col">
                  <span className="truncate font-medium">{titleOf(entry.id, entry.name)}</span>
                  <span className="text-xs text-muted">{reasonText(entry)}</span>
                </span>
                <span className="flex flex-wrap gap-1">
                  <Badge tone="info">{positionBadge[entry.position]}</Badge>
                  <Badge>{n(entry.tokens)} tokens</Badge>
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {result.over_budget.length ? (
        <Banner tone="warning" title="Matched but over the token budget">
          <ul className="list-disc pl-5" aria-label="Entries over budget">
            {result.over_budget.map((entry) => (
              <li key={entry.id}>{titleOf(entry.id, entry.name)}</li>
            ))}
          </ul>
        </Banner>
      ) : null}
      {result.invalid_keys.length ? (
        <Banner tone="warning" title="These keys aren't valid regular expressions and never match">
          <ul className="list-disc pl-5" aria-label="Invalid keys">
            {result.invalid_keys.map((key) => (
              <li key={`${key.id}:${key.key}`}>
                <code className="break-all">{key.key}</code> in {titleOf(key.id, "")}
              </li>
            ))}
          </ul>
        </Banner>
      ) : null}
      {skipped.length ? (
        <p className="text-sm text-muted">Not tested, as they need a fix first: {skipped.join(", ")}.</p>
      ) : null}
    </div>
  );
}
