import type { Character } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { Link, useBlocker, useNavigate, useParams } from "@tanstack/react-router";
import { Check, Download, Trash2, UserRound } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import {
  characterEditQuery,
  exportHref,
  removeAvatar,
  uploadAvatar,
  useAvatarChanged,
  useUpdateCharacter,
} from "../../features/characters/api.ts";
import { AvatarField } from "../../features/characters/avatar-field.tsx";
import { CharacterForm } from "../../features/characters/character-form.tsx";
import { DeleteCharacterDialog } from "../../features/characters/delete-character.tsx";
import {
  type CharacterFormValues,
  deleteDraft,
  getDraft,
  saveDraft,
  valuesFromCharacter,
} from "../../features/characters/drafts.ts";
import { timeAgo } from "../../features/characters/format.ts";
import { profileHref } from "../../features/characters/links.ts";
import { ModerationBanner } from "../../features/characters/moderation-banner.tsx";
import {
  CharacterUnavailable,
  isForbidden,
  isUnavailable,
  LoadFailed,
  NotAllowed,
} from "../../features/characters/unavailable.tsx";
import {
  avatarErrorKey,
  changedFields,
  cleanValues,
  errorsFromIssues,
  type FieldErrors,
  focusFirstError,
  validateCharacter,
} from "../../features/characters/validation.ts";
import { WritingGuide } from "../../features/characters/writing-guide.tsx";
import { ImageTrainingStatus } from "../../features/chat/image-training-status.tsx";
import { TagSuggestionsPanel } from "../../features/ratings/tag-suggestions-panel.tsx";
import { TranslationsPanel } from "../../features/translations/translations-panel.tsx";
import { errorMessage, isApiRequestError } from "../../lib/api.ts";
import { pageTitle } from "../../lib/brand.ts";
import { useAppConfig, useMe } from "../../lib/session.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";

const exportFormats = [
  { format: "png", label: "PNG card" },
  { format: "json", label: "JSON" },
  { format: "charx", label: "CharX" },
] as const;

function takeAvatarError(id: string): string | null {
  try {
    const message = sessionStorage.getItem(avatarErrorKey(id));
    sessionStorage.removeItem(avatarErrorKey(id));
    return message;
  } catch {
    return null;
  }
}

function Editor({ character, userId }: { character: Character; userId: string }) {
  const navigate = useNavigate();
  const update = useUpdateCharacter(character.id);
  const avatarChanged = useAvatarChanged();
  const status = character.moderationReport.moderation_status;
  // An administrator edits anyone's bot at any time (the server audits it); a creator waits for review.
  const moderating = !character.is_creator;
  const blocked = !moderating && (status === "pending" || status === "rereview_required");
  const syncsDraft = !moderating && status === "fix_required";

  const [original, setOriginal] = useState<CharacterFormValues>(() => valuesFromCharacter(character));
  // A fix draft with edits from an earlier visit is restored (chat-and-characters §4).
  const restored = useRef(syncsDraft ? getDraft(userId, character.id) : null);
  const [values, setValues] = useState<CharacterFormValues>(() => restored.current?.values ?? original);
  const [showRestored, setShowRestored] = useState(Boolean(restored.current?.values));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [savedNotice, setSavedNotice] = useState(false);
  const [avatarProgress, setAvatarProgress] = useState<number | null>(null);
  const [avatarError, setAvatarError] = useState<string | null>(() => takeAvatarError(character.id));
  const [deleting, setDeleting] = useState(false);
  const leaving = useRef(false);

  const changes = changedFields(original, values);
  const dirty = Object.keys(changes).length > 0;

  useEffect(() => {
    if (!savedNotice) return;
    const timer = setTimeout(() => setSavedNotice(false), 3000);
    return () => clearTimeout(timer);
  }, [savedNotice]);

  // Fix drafts follow the creator's unsaved edits, so the Drafts page can bring them back.
  useEffect(() => {
    if (!syncsDraft) return;
    const timer = setTimeout(() => {
      // Unedited fix drafts hold no values (My Chatbots creates them); only edits are written.
      if (!dirty && !getDraft(userId, character.id)?.values) return;
      saveDraft(userId, {
        id: character.id,
        kind: "fix",
        values: dirty ? values : null,
        name: character.name,
        avatar_url: character.avatar_url,
      });
    }, 300);
    return () => clearTimeout(timer);
  }, [syncsDraft, dirty, values, userId, character.id, character.name, character.avatar_url]);

  const blocker = useBlocker({
    shouldBlockFn: () => dirty && !leaving.current,
    enableBeforeUnload: () => dirty && !leaving.current,
    withResolver: true,
  });

  const onChange = (next: CharacterFormValues) => {
    setValues(next);
    setSavedNotice(false);
    if (Object.keys(errors).length) setErrors({});
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
    const toSend = changedFields(original, cleaned);
    if (Object.keys(toSend).length === 0) {
      setValues(original);
      return;
    }
    try {
      const saved = await update.mutateAsync(toSend);
      const next = valuesFromCharacter(saved);
      setOriginal(next);
      setValues(next);
      setSavedNotice(true);
      setShowRestored(false);
      deleteDraft(userId, character.id);
    } catch (caught) {
      if (isApiRequestError(caught) && caught.issues?.length) {
        const serverErrors = errorsFromIssues(caught.issues);
        setErrors(serverErrors);
        focusFirstError(serverErrors);
      }
    }
  };

  const pickAvatar = async (file: File) => {
    setAvatarError(null);
    setAvatarProgress(0);
    try {
      const answer = await uploadAvatar(character.id, file, (p) =>
        setAvatarProgress(p.fraction ?? Number.NaN),
      );
      avatarChanged(character.id, answer?.avatar_url ?? null);
    } catch (caught) {
      setAvatarError(errorMessage(caught));
    } finally {
      setAvatarProgress(null);
    }
  };

  const dropAvatar = async () => {
    setAvatarError(null);
    try {
      await removeAvatar(character.id);
      avatarChanged(character.id, null);
    } catch (caught) {
      setAvatarError(errorMessage(caught));
    }
  };

  const conflict = isApiRequestError(update.error) && update.error.status === 409;

  return (
    <Page width="medium">
      <PageHeader
        title={`Edit ${character.name}`}
        description="Changes show on the profile as soon as you save."
        actions={
          <>
            <WritingGuide />
            <Button asChild variant="outline">
              <Link to={profileHref(character.id)}>
                <UserRound aria-hidden />
                <span className="hidden sm:inline">View profile</span>
                <span className="sm:hidden">Profile</span>
              </Link>
            </Button>
          </>
        }
      />
      <div className="flex flex-col gap-5 sm:gap-6">
        {moderating ? (
          <Banner tone="warning" title="You are editing someone else's chatbot">
            As an administrator. Your changes are recorded in the audit log.
          </Banner>
        ) : null}
        <ModerationBanner character={character} />
        <ImageTrainingStatus characterId={character.id} />
        <TagSuggestionsPanel
          characterId={character.id}
          blocked={blocked}
          // An accepted suggestion is saved already: the form takes its tags as the saved ones.
          onTagsChanged={(tags) => {
            setOriginal((o) => ({ ...o, tags }));
            setValues((v) => ({ ...v, tags }));
          }}
        />
        {blocked ? null : <TranslationsPanel characterId={character.id} />}
        {showRestored && restored.current ? (
          <Banner
            tone="info"
            title="Unsaved changes restored"
            action={
              <Button
                variant="outline"
                size="sm"
                onClick={() => {
                  setValues(original);
                  setShowRestored(false);
                  deleteDraft(userId, character.id);
                }}
              >
                Discard them
              </Button>
            }
          >
            From your draft saved {timeAgo(restored.current.updated_at)}.
          </Banner>
        ) : null}

        <form
          noValidate
          onSubmit={submit}
          className="flex flex-col gap-5 sm:gap-6"
          aria-label={`Edit ${character.name}`}
        >
          {update.error && !(isApiRequestError(update.error) && update.error.issues?.length) ? (
            <Banner
              tone={conflict ? "warning" : "danger"}
              title={conflict ? "Edits are blocked for now" : "Changes weren't saved"}
            >
              {errorMessage(update.error)}
            </Banner>
          ) : null}
          {Object.keys(errors).length ? (
            <Banner tone="danger">Some fields need a look before the changes can be saved.</Banner>
          ) : null}
          <CharacterForm
            values={values}
            onChange={onChange}
            errors={errors}
            disabled={blocked || update.isPending}
            avatar={
              <AvatarField
                name={values.name}
                src={character.avatar_url}
                progress={avatarProgress}
                error={avatarError}
                disabled={blocked}
                onPick={pickAvatar}
                onRemove={dropAvatar}
              />
            }
          />
          <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center justify-end gap-3 border-t border-border bg-bg/90 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border sm:px-4">
            <span className="mr-auto text-sm text-muted" aria-live="polite">
              {savedNotice ? (
                <span className="inline-flex items-center gap-1.5 text-success">
                  <Check aria-hidden className="size-4" />
                  Changes saved
                </span>
              ) : dirty ? (
                "Unsaved changes"
              ) : (
                "No changes"
              )}
            </span>
            <Button type="submit" size="lg" loading={update.isPending} disabled={!dirty || blocked}>
              Save changes
            </Button>
          </div>
        </form>

        <section
          aria-labelledby="export-heading"
          className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4 sm:p-6"
        >
          <div className="flex flex-col gap-1">
            <h2 id="export-heading" className="text-base font-semibold">
              Export
            </h2>
            <p className="text-sm text-muted">
              Download the saved chatbot as a character card for other apps.
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            {exportFormats.map(({ format, label }) => (
              <Button key={format} asChild variant="outline" size="sm">
                <a href={exportHref(character.id, format)} download>
                  <Download aria-hidden />
                  {label}
                </a>
              </Button>
            ))}
          </div>
        </section>

        <section
          aria-labelledby="delete-heading"
          className="flex flex-col gap-3 rounded-xl border border-danger/40 bg-surface p-4 sm:flex-row sm:items-center sm:justify-between sm:p-6"
        >
          <div className="flex flex-col gap-1">
            <h2 id="delete-heading" className="text-base font-semibold">
              Delete this chatbot
            </h2>
            <p className="text-sm text-muted">It is removed for everyone, with its profile and picture.</p>
          </div>
          <Button variant="danger" onClick={() => setDeleting(true)}>
            <Trash2 aria-hidden />
            Delete chatbot
          </Button>
        </section>
      </div>

      <DeleteCharacterDialog
        character={deleting ? { id: character.id, name: character.name } : null}
        onOpenChange={setDeleting}
        onDeleted={() => {
          leaving.current = true;
          navigate({ to: "/my-chatbots", replace: true });
        }}
      />

      <Dialog open={blocker.status === "blocked"} onOpenChange={(open) => !open && blocker.reset?.()}>
        {blocker.status === "blocked" ? (
          <DialogContent
            title="Unsaved Changes"
            description="You have changes that aren't saved yet. Leave anyway?"
          >
            <DialogFooter>
              <Button variant="outline" onClick={() => blocker.reset()}>
                Stay and keep editing
              </Button>
              <Button variant="danger" onClick={() => blocker.proceed()}>
                Leave without saving
              </Button>
            </DialogFooter>
          </DialogContent>
        ) : null}
      </Dialog>
    </Page>
  );
}

/** /chatbot/edit/{characterId}: the creator's editor (chat-and-characters §2), open to administrators too. */
export default function ChatbotEditScreen() {
  const me = useMe();
  const { characterId = "" } = useParams({ strict: false }) as { characterId?: string };
  const character = useQuery(characterEditQuery(characterId));
  const { brand } = useAppConfig();

  useEffect(() => {
    if (character.data) document.title = pageTitle(`Edit ${character.data.name}`, brand.name);
  }, [character.data, brand.name]);

  if (character.isPending) return <PageSpinner />;
  if (character.isError) {
    if (isForbidden(character.error)) return <NotAllowed />;
    if (isUnavailable(character.error)) return <CharacterUnavailable />;
    return <LoadFailed error={character.error} onRetry={() => void character.refetch()} />;
  }
  const admin = me?.permissions.includes("admin") ?? false;
  if (!me || !(character.data.is_creator || admin)) return <NotAllowed />;
  return <Editor key={character.data.id} character={character.data} userId={me.id} />;
}
