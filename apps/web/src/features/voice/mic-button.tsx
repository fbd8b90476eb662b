import { Mic, MicOff } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { cn } from "../../ui/cn.ts";

/** The parts of the Web Speech API's SpeechRecognition the mic uses. */
interface Recognition {
  lang: string;
  interimResults: boolean;
  continuous: boolean;
  maxAlternatives: number;
  onresult:
    | ((event: {
        resultIndex: number;
        results: ArrayLike<{ isFinal: boolean; 0: { transcript: string } }>;
      }) => void)
    | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
}
type RecognitionCtor = new () => Recognition;

/** The browser's speech recognition, or null where it has none (Firefox, headless Chromium). */
export function speechRecognition(): RecognitionCtor | null {
  if (typeof window === "undefined") return null;
  const w = window as unknown as {
    SpeechRecognition?: RecognitionCtor;
    webkitSpeechRecognition?: RecognitionCtor;
  };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

/** The microphone permission, where the browser can tell: a denied one is not asked again. */
async function microphoneDenied(): Promise<boolean> {
  try {
    const status = await navigator.permissions?.query({ name: "microphone" as PermissionName });
    return status?.state === "denied";
  } catch {
    // Browsers that cannot be asked about the microphone ask the user when recognition starts.
    return false;
  }
}

/**
 * The mic of the input bar (§2, §7 "Browser speech recognition (en-US, final results only) with
 * a microphone permission check"). Hidden where the browser has no speech recognition.
 */
export function MicButton({
  disabled,
  className,
  onFinal,
  onRecordingChange,
}: {
  disabled: boolean;
  className: string;
  onFinal: (text: string) => void;
  onRecordingChange: (recording: boolean) => void;
}) {
  const [Ctor] = useState(speechRecognition);
  const [recording, setRecording] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const active = useRef<Recognition | null>(null);
  const final = useRef(onFinal);
  final.current = onFinal;
  const changed = useRef(onRecordingChange);
  changed.current = onRecordingChange;

  useEffect(() => changed.current(recording), [recording]);
  useEffect(() => () => active.current?.stop(), []);

  if (!Ctor) return null;

  const start = async () => {
    setProblem(null);
    if (await microphoneDenied()) {
      setProblem("Microphone access is blocked. Allow it in your browser's site settings to speak.");
      return;
    }
    const recognition = new Ctor();
    recognition.lang = "en-US";
    recognition.interimResults = false;
    recognition.continuous = false;
    recognition.maxAlternatives = 1;
    recognition.onresult = (event) => {
      for (let i = event.resultIndex; i < event.results.length; i++) {
        const result = event.results[i];
        const text = result?.[0].transcript.trim();
        if (result?.isFinal && text) final.current(text);
      }
    };
    recognition.onerror = (event) => {
      if (event.error === "not-allowed" || event.error === "service-not-allowed") {
        setProblem("Microphone access is blocked. Allow it in your browser's site settings to speak.");
      } else if (event.error !== "aborted" && event.error !== "no-speech") {
        setProblem("Speech could not be recognised. Please try again.");
      }
    };
    recognition.onend = () => {
      active.current = null;
      setRecording(false);
    };
    active.current = recognition;
    recognition.start();
    setRecording(true);
  };

  return (
    <>
      <button
        type="button"
        className={cn(
          className,
          recording ? "bg-danger/15 text-danger" : "text-muted hover:bg-surface-2 hover:text-accent-text",
        )}
        aria-label={recording ? "Stop recording" : "Speak a message"}
        title={problem ?? (recording ? "Stop recording" : "Speak a message")}
        aria-pressed={recording}
        disabled={disabled && !recording}
        onClick={() => (recording ? active.current?.stop() : void start())}
      >
        {problem ? <MicOff aria-hidden /> : <Mic aria-hidden />}
      </button>
      {problem ? (
        <span role="alert" className="sr-only">
          {problem}
        </span>
      ) : null}
    </>
  );
}
