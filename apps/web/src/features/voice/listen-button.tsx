import { useQuery } from "@tanstack/react-query";
import { Square, Volume2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { errorMessage, isApiRequestError } from "../../lib/api.ts";
import { useMe } from "../../lib/session.ts";
import { cn } from "../../ui/cn.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { PlanRequiredDialog } from "../chat/plan-required-dialog.tsx";
import { readSkipActions, streamMessageAudio, voicesQuery } from "./api.ts";
import { SentencePlayer } from "./player.ts";
import { SignUpForVoiceDialog } from "./sign-up-dialog.tsx";

type State = "idle" | "loading" | "playing";

/**
 * Listen / Stop on a bot message (§2 action row, §4 Voice button: idle, play, stop). The audio
 * streams one sentence piece at a time and plays as it comes. Without TTS the button opens the
 * upgrade modal (§5 "Voice features need TTS access and a premium user"); guests have no voice
 * and get the sign-up prompt (§6). Not shown where the server has no voice.
 */
export function ListenButton({ messageId, className }: { messageId: string; className: string }) {
  const me = useMe();
  const voices = useQuery({ ...voicesQuery, enabled: Boolean(me) });
  const [state, setState] = useState<State>("idle");
  const [upgrade, setUpgrade] = useState(false);
  const [signUp, setSignUp] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef<{ abort: AbortController; player: SentencePlayer } | null>(null);

  const stop = () => {
    running.current?.abort.abort();
    running.current?.player.stop();
    running.current = null;
    setState("idle");
  };
  // Leaving the chat stops the voice.
  useEffect(
    () => () => {
      running.current?.abort.abort();
      running.current?.player.stop();
    },
    [],
  );

  if (!me || !voices.data?.enabled) return null;
  const allowed = me.permissions.includes("TTS");

  const start = async () => {
    if (me.is_guest) {
      setSignUp(true);
      return;
    }
    if (!allowed) {
      setUpgrade(true);
      return;
    }
    setError(null);
    const abort = new AbortController();
    const player = new SentencePlayer(() => {
      if (running.current?.player === player) running.current = null;
      setState("idle");
    });
    running.current = { abort, player };
    setState("loading");
    try {
      await streamMessageAudio(messageId, {
        skipActions: readSkipActions(),
        signal: abort.signal,
        onEvent: (event) => {
          if (event.type === "audio") {
            void player.add(event.data).then(() => {
              if (running.current?.player === player) setState("playing");
            });
          } else if (event.type === "done") {
            player.finish();
          } else {
            setError(event.message);
            player.finish();
          }
        },
      });
    } catch (caught) {
      if (abort.signal.aborted) return;
      player.stop();
      running.current = null;
      setState("idle");
      if (isApiRequestError(caught) && caught.errorType === "voice_upgrade") setUpgrade(true);
      else setError(errorMessage(caught));
    }
  };

  const busy = state !== "idle";
  return (
    <>
      <button
        type="button"
        className={cn(className, busy && "text-accent-text")}
        aria-label={busy ? "Stop" : "Listen"}
        title={busy ? "Stop" : "Listen"}
        aria-pressed={busy}
        data-listen-state={state}
        onClick={() => (busy ? stop() : void start())}
      >
        {state === "loading" ? (
          <Spinner size="sm" label={null} />
        ) : state === "playing" ? (
          <Square aria-hidden className="fill-current" />
        ) : (
          <Volume2 aria-hidden />
        )}
      </button>
      {error ? (
        <span role="alert" className="px-1 text-xs text-danger">
          {error}
        </span>
      ) : null}
      <PlanRequiredDialog plan={upgrade ? "basic" : null} feature="Voice" onClose={() => setUpgrade(false)} />
      <SignUpForVoiceDialog open={signUp} onClose={() => setSignUp(false)} />
    </>
  );
}
