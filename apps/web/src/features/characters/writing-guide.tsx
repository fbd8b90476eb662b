import { BookOpen } from "lucide-react";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogContent, DialogTrigger } from "../../ui/dialog.tsx";

const tips: Array<{ title: string; text: string }> = [
  {
    title: "Start with the greeting",
    text: "It sets the tone and the scene. Write it as the character would speak, and leave the user something to answer.",
  },
  {
    title: "Personality: show, don't list",
    text: "A few concrete details (how they talk, what they want, what they avoid) work better than a long list of adjectives.",
  },
  {
    title: "Scenario: where and when",
    text: "One or two sentences about the situation the chat starts in, and the user's role in it.",
  },
  {
    title: "Example dialogue teaches the voice",
    text: "Two or three short exchanges with {{char}} and {{user}} show the AI how the character writes: length, style, actions in *asterisks*.",
  },
  {
    title: "Tags and title help people find it",
    text: "Pick up to 12 tags people would search for, and a title that says in a line what the chat is about.",
  },
  {
    title: "Keep it within the rules",
    text: "Mark adult chatbots and avatars NSFW. Characters must never be minors in sexual contexts; such bots are removed.",
  },
];

/** The editor's guide link: a short writing guide in a dialog. */
export function WritingGuide() {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="outline">
          <BookOpen aria-hidden />
          Writing guide
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Writing a good chatbot"
        description="Six tips from creators whose bots people love."
      >
        <ol className="flex flex-col gap-4">
          {tips.map((tip, index) => (
            <li key={tip.title} className="flex gap-3">
              <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-accent-soft text-xs font-semibold text-accent-text">
                {index + 1}
              </span>
              <div className="flex flex-col gap-0.5">
                <h3 className="text-sm font-semibold">{tip.title}</h3>
                <p className="text-sm leading-relaxed text-muted">{tip.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </DialogContent>
    </Dialog>
  );
}
