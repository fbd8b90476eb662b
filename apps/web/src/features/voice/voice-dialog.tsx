import type { Conversation, Voice } from "@hearth/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Pause, Play } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { useMe } from "../../lib/session.ts";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { chatKeys } from "../chat/api.ts";
import { PlanRequiredDialog } from "../chat/plan-required-dialog.tsx";
import { readSkipActions, setConversationVoice, voicesQuery, writeSkipActions } from "./api.ts";

type Gender = "all" | "male" | "female";
const genders: { value: Gender; label: string }[] = [
  { value: "all", label: "All" },
  { value: "male", label: "Male" },
  { value: "female", label: "Female" },
];

/**
 * The voice selection modal (§2 Set Voice / Voice Change, §3 Voice: gender filter and a sample),
 * for members with TTS; others get the upgrade modal (§4 Voice button, §6).
 */
export function VoiceDialog({
  conversation,
  open,
  onOpenChange,
}: {
  conversation: Conversation;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const me = useMe();
  if (open && !me?.permissions.includes("TTS")) {
    return <PlanRequiredDialog plan="basic" feature="Voice" onClose={() => onOpenChange(false)} />;
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? <VoiceChooser conversation={conversation} onDone={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}

function VoiceChooser({ conversation, onDone }: { conversation: Conversation; onDone: () => void }) {
  const voices = useQuery(voicesQuery);
  const queryClient = useQueryClient();
  const [gender, setGender] = useState<Gender>("all");
  const [chosen, setChosen] = useState<string | null>(conversation.voiceId);
  const [skip, setSkip] = useState(readSkipActions);
  const [sampling, setSampling] = useState<string | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);
  useEffect(() => () => audio.current?.pause(), []);

  const current = chosen ?? voices.data?.default_voice_id ?? null;
  const shown = (voices.data?.voices ?? []).filter((v) => gender === "all" || v.gender === gender);
  const save = useMutation({
    mutationFn: () => setConversationVoice(conversation.id, chosen),
    onSuccess: () => {
      writeSkipActions(skip);
      void queryClient.invalidateQueries({ queryKey: chatKeys.detail(conversation.id) });
      onDone();
    },
  });

  const playSample = (voice: Voice) => {
    audio.current?.pause();
    if (sampling === voice.id) {
      setSampling(null);
      return;
    }
    const player = new Audio(voice.sample_url);
    audio.current = player;
    setSampling(voice.id);
    player.onended = () => setSampling((s) => (s === voice.id ? null : s));
    player.onerror = () => setSampling((s) => (s === voice.id ? null : s));
    void player.play().catch(() => setSampling(null));
  };

  return (
    <DialogContent
      title="Choose a voice"
      description="Replies in this chat are spoken with this voice when you press Listen."
    >
      <fieldset className="flex gap-1.5">
        <legend className="sr-only">Gender</legend>
        {genders.map((g) => (
          <label
            key={g.value}
            className={cn(
              "cursor-pointer rounded-full border px-3 py-1 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
              gender === g.value ? "border-accent bg-accent-soft font-semibold" : "border-border",
            )}
          >
            <input
              type="radio"
              name="voice-gender"
              className="sr-only"
              checked={gender === g.value}
              onChange={() => setGender(g.value)}
            />
            {g.label}
          </label>
        ))}
      </fieldset>
      {voices.isPending ? (
        <Spinner />
      ) : (
        <ul className="flex max-h-[45dvh] flex-col gap-1 overflow-y-auto" aria-label="Voices">
          {shown.map((voice) => (
            <li
              key={voice.id}
              className="flex items-center gap-2 rounded-lg border border-border px-2 py-1.5"
            >
              <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="voice"
                  value={voice.id}
                  checked={current === voice.id}
                  onChange={() => setChosen(voice.id)}
                  className="accent-[var(--color-accent)]"
                />
                <span className="min-w-0 truncate">{voice.name}</span>
                <span className="shrink-0 text-xs text-muted">
                  {voice.gender === "female" ? "Female" : "Male"}
                  {voice.language ? ` · ${voice.language}` : ""}
                </span>
              </label>
              <Button
                type="button"
                variant="ghost"
                size="sm"
                aria-label={`${sampling === voice.id ? "Stop sample of" : "Play sample of"} ${voice.name}`}
                onClick={() => playSample(voice)}
              >
                {sampling === voice.id ? <Pause aria-hidden /> : <Play aria-hidden />}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={skip} onChange={(e) => setSkip(e.target.checked)} />
        Skip narration in *actions* when listening
      </label>
      {save.isError ? (
        <p role="alert" className="text-sm text-danger">
          {errorMessage(save.error)}
        </p>
      ) : null}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button disabled={save.isPending || !voices.data?.enabled} onClick={() => save.mutate()}>
          Save voice
        </Button>
      </DialogFooter>
    </DialogContent>
  );
}
