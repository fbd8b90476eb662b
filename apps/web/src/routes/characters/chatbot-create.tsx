import { Navigate, useNavigate, useParams } from "@tanstack/react-router";
import { Check, Trash2 } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { uploadAvatar, useCreateCharacter } from "../../features/characters/api.ts";
import { AvatarField, avatarTypes } from "../../features/characters/avatar-field.tsx";
import { CharacterForm } from "../../features/characters/character-form.tsx";
import {
  type CharacterFormValues,
  deleteDraft,
  emptyCharacterValues,
  getDraft,
  newDraftId,
  saveDraft,
} from "../../features/characters/drafts.ts";
import { timeAgo } from "../../features/characters/format.ts";
import { ImportCard } from "../../features/characters/import-card.tsx";
import { afterCreateHref, editHref } from "../../features/characters/links.ts";
import { SignedOutCreate } from "../../features/characters/signed-out-create.tsx";
import { useObjectUrl } from "../../features/characters/use-object-url.ts";
import {
  avatarErrorKey,
  cleanValues,
  errorsFromIssues,
  type FieldErrors,
  focusFirstError,
  validateCharacter,
} from "../../features/characters/validation.ts";
import { WritingGuide } from "../../features/characters/writing-guide.tsx";
import { errorMessage, isApiRequestError } from "../../lib/api.ts";
import { useMe } from "../../lib/session.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";

const autosaveMs = 300;

function isEmpty(values: CharacterFormValues): boolean {
  return JSON.stringify(values) === JSON.stringify(emptyCharacterValues);
}

function CreateForm({ userId, draftId }: { userId: string; draftId: string }) {
  const navigate = useNavigate();
  const stored = useRef(getDraft(userId, draftId));
  const [values, setValues] = useState<CharacterFormValues>(
    () => stored.current?.values ?? { ...emptyCharacterValues },
  );
  const [savedAt, setSavedAt] = useState<string | null>(stored.current?.updated_at ?? null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [avatarFile, setAvatarFile] = useState<File | null>(null);
  const [avatarError, setAvatarError] = useState<string | null>(null);
  const [avatarProgress, setAvatarProgress] = useState<number | null>(null);
  const preview = useObjectUrl(avatarFile);
  const create = useCreateCharacter();
  const [submitting, setSubmitting] = useState(false);
  const finished = useRef(false);

  // Autosave to this device shortly after typing stops, and at once when the page goes away.
  const latest = useRef(values);
  latest.current = values;
  const dirty = useRef(false);
  const saveNow = useRef(() => {});
  saveNow.current = () => {
    if (!dirty.current || finished.current) return;
    dirty.current = false;
    if (isEmpty(latest.current) && !getDraft(userId, draftId)) return;
    saveDraft(userId, {
      id: draftId,
      kind: "create",
      values: latest.current,
      name: latest.current.name,
      avatar_url: null,
    });
    setSavedAt(new Date().toISOString());
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: each edit (values) restarts the autosave timer
  useEffect(() => {
    if (!dirty.current) return;
    const timer = setTimeout(() => saveNow.current(), autosaveMs);
    return () => clearTimeout(timer);
  }, [values]);
  useEffect(() => {
    const flush = () => saveNow.current();
    window.addEventListener("pagehide", flush);
    return () => {
      window.removeEventListener("pagehide", flush);
      flush();
    };
  }, []);

  const onChange = (next: CharacterFormValues) => {
    dirty.current = true;
    setValues(next);
    if (Object.keys(errors).length) setErrors({});
  };

  const discard = () => {
    finished.current = true;
    deleteDraft(userId, draftId);
    navigate({ to: `/chatbot/create/${newDraftId()}`, replace: true });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const cleaned = cleanValues(values);
    const found = validateCharacter(cleaned);
    setErrors(found);
    if (Object.keys(found).length) {
      focusFirstError(found);
      return;
    }
    setSubmitting(true);
    try {
      const character = await create.mutateAsync(cleaned);
      finished.current = true;
      deleteDraft(userId, draftId);
      if (avatarFile) {
        setAvatarProgress(0);
        try {
          await uploadAvatar(character.id, avatarFile, (p) => setAvatarProgress(p.fraction ?? Number.NaN));
        } catch (caught) {
          // The bot exists; the editor explains the picture didn't make it.
          sessionStorage.setItem(avatarErrorKey(character.id), errorMessage(caught));
          navigate({ to: editHref(character.id), replace: true });
          return;
        }
      }
      navigate({ to: afterCreateHref(character.id), replace: true });
    } catch (caught) {
      if (isApiRequestError(caught) && caught.issues?.length) {
        const serverErrors = errorsFromIssues(caught.issues);
        setErrors(serverErrors);
        focusFirstError(serverErrors);
      }
      setSubmitting(false);
      setAvatarProgress(null);
    }
  };

  return (
    <Page width="medium">
      <PageHeader
        title="Create a chatbot"
        description="Write your own character, or import a character card."
        actions={<WritingGuide />}
      />
      <div className="flex flex-col gap-5 sm:gap-6">
        <section
          aria-labelledby="import-heading"
          className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4 sm:p-6"
        >
          <div className="flex flex-col gap-1">
            <h2 id="import-heading" className="text-base font-semibold">
              Import a character card
            </h2>
            <p className="text-sm text-muted">Made elsewhere? Bring it in; you can edit it afterwards.</p>
          </div>
          <ImportCard />
        </section>

        <form noValidate onSubmit={submit} className="flex flex-col gap-5 sm:gap-6" aria-label="New chatbot">
          <div
            className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted"
            aria-live="polite"
          >
            <span className="inline-flex items-center gap-1.5">
              {savedAt ? (
                <>
                  <Check aria-hidden className="size-4 text-success" />
                  Draft saved on this device {timeAgo(savedAt)}
                </>
              ) : (
                "Your draft is saved on this device as you type."
              )}
            </span>
            {savedAt ? (
              <Button variant="ghost" size="sm" onClick={discard}>
                <Trash2 aria-hidden />
                Discard draft
              </Button>
            ) : null}
          </div>
          {create.error && !(isApiRequestError(create.error) && create.error.issues?.length) ? (
            <Banner tone="danger" title="The chatbot couldn't be created">
              {errorMessage(create.error)}
            </Banner>
          ) : null}
          {Object.keys(errors).length ? (
            <Banner tone="danger">Some fields need a look before the chatbot can be created.</Banner>
          ) : null}
          <CharacterForm
            values={values}
            onChange={onChange}
            errors={errors}
            disabled={submitting}
            avatar={
              <AvatarField
                name={values.name}
                src={preview}
                progress={avatarProgress}
                error={avatarError}
                note="PNG, JPEG, WebP or GIF. It is uploaded when you create the chatbot."
                disabled={submitting}
                onPick={(file) => {
                  if (!avatarTypes.split(",").includes(file.type)) {
                    setAvatarError("Choose a PNG, JPEG, WebP or GIF image.");
                    return;
                  }
                  setAvatarError(null);
                  setAvatarFile(file);
                }}
                onRemove={() => setAvatarFile(null)}
              />
            }
          />
          <div className="sticky bottom-0 z-10 -mx-4 flex items-center justify-end gap-3 border-t border-border bg-bg/90 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border sm:px-4">
            <Button type="submit" size="lg" loading={submitting} className="w-full sm:w-auto">
              Create chatbot
            </Button>
          </div>
        </form>
      </div>
    </Page>
  );
}

/**
 * /chatbot/create and /chatbot/create/{draftId}. A new visit gets a draft id at once, so the
 * address always names the draft and a reload continues it.
 */
export default function ChatbotCreateScreen() {
  const me = useMe();
  const { draftId } = useParams({ strict: false }) as { draftId?: string };
  if (!me || me.is_guest)
    return <SignedOutCreate redirectTo={draftId ? `/chatbot/create/${draftId}` : "/chatbot/create"} />;
  if (!draftId) return <Navigate to={`/chatbot/create/${newDraftId()}`} replace />;
  // A new key per draft: opening another draft starts from its own saved state.
  return <CreateForm key={draftId} userId={me.id} draftId={draftId} />;
}
