import { BookOpen, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { FormSection } from "../characters/form-controls.tsx";
import { type BookValues, bookErrors, emptyBook } from "./book-values.ts";
import { LorebookEditor } from "./lorebook-editor.tsx";

/**
 * The Chatbot Editor's "Lorebook" section: the character's own book (its card's
 * character_book), saved with the rest of the chatbot.
 */
export function CharacterBookSection({
  value,
  onChange,
  error,
  disabled,
}: {
  value: BookValues | null;
  onChange: (book: BookValues | null) => void;
  /** The form's complaint about the book (a save was tried); the details are worked out here. */
  error?: string;
  disabled?: boolean;
}) {
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  const errors = value && error ? bookErrors(value, { named: false }) : {};
  // A complaint the local check doesn't explain came from the server: show it as it is.
  const unexplained = error && Object.keys(errors).length === 0 ? error : null;

  return (
    <FormSection
      id="character-lorebook"
      title="Lorebook"
      description="Lore that joins the prompt only when its keys come up in the chat: places, people, rules of the world."
    >
      <div id="character-character-book" tabIndex={-1} className="flex flex-col gap-5 outline-none">
        {unexplained ? <Banner tone="danger">{unexplained}</Banner> : null}
        {value ? (
          <>
            <LorebookEditor
              value={value}
              onChange={onChange}
              named={false}
              errors={errors}
              headingLevel={3}
            />
            {confirmingRemove ? (
              <div className="flex flex-col gap-2 rounded-lg border border-danger/40 bg-danger-soft p-3 text-sm sm:flex-row sm:items-center sm:justify-between">
                <span>Remove the whole lorebook from this chatbot? Saving makes it final.</span>
                <span className="flex gap-2">
                  <Button
                    variant="danger"
                    size="sm"
                    onClick={() => {
                      setConfirmingRemove(false);
                      onChange(null);
                    }}
                  >
                    Remove lorebook
                  </Button>
                  <Button variant="outline" size="sm" onClick={() => setConfirmingRemove(false)}>
                    Keep it
                  </Button>
                </span>
              </div>
            ) : (
              <Button
                variant="ghost"
                size="sm"
                className="self-start text-danger"
                disabled={disabled}
                onClick={() => setConfirmingRemove(true)}
              >
                <Trash2 aria-hidden />
                Remove lorebook
              </Button>
            )}
          </>
        ) : (
          <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border-strong px-4 py-6 text-center text-sm">
            <BookOpen aria-hidden className="size-6 text-accent-text" />
            <p className="max-w-md text-muted">
              This chatbot has no lorebook. Imported cards bring theirs along; you can also write one here.
            </p>
            <Button variant="outline" size="sm" disabled={disabled} onClick={() => onChange(emptyBook())}>
              <Plus aria-hidden />
              Add a lorebook
            </Button>
          </div>
        )}
      </div>
    </FormSection>
  );
}
