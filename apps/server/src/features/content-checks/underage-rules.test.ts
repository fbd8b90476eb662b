import { describe, expect, it } from "vitest";
import { RuleModerator } from "./moderators.ts";
import { underageReason } from "./underage-rules.ts";

/** The judgement calls of underage-rules.ts, one phrasing each. */
const TRIPS = [
  "a 12 year old girl on the beach",
  "portrait of a 15-year-old boy",
  "Mira, 16yo, smiling",
  "she looks 14, standing in the rain",
  "aged 9, wearing a dress",
  "a twelve-year-old princess",
  "a fourteen year old knight",
  "a teenage girl in her room",
  "two teens at a party",
  "a high school student in uniform",
  "she is in high school",
  "high school girl walking home",
  "a middle school classroom with pupils",
  "kindergarten teacher and her class of children",
  "a 5th grader doing homework",
  "child in a garden",
  "childlike body, innocent face",
  "kids playing in the park",
  "a toddler with a balloon",
  "a loli in a maid outfit",
  "little girl holding a teddy bear",
  "young boy fishing",
  "schoolgirl outfit",
  "a picture involving minors",
  "a minor in a bar",
  "an underage drinker",
  "a 10 year old whisky on the table", // accepted false positive: any age under 18 trips it
  "holding a baby in her arms",
  "CHILD, full body", // case does not matter
  "ａ　１２ year old", // full-width characters are folded first
];

const PASSES = [
  "high school reunion of adults, thirty years later",
  "a high school teacher grading papers",
  "her high school sweetheart, now 30, in a café",
  "a teenager-free bar: an 18 year old student and her 19 year old friend", // adult ages stated
  "a 25 year old woman with red hair",
  "a woman in her twenties, petite, freckles",
  "a young woman reading",
  "college student in a library",
  "a girl with a sword on a mountain",
  "two boys in a band, both in their thirties",
  "a minor detail in the background, ornate frame",
  "a song in a minor key",
  "handled with kid gloves",
  "baby blue dress",
  "hey babe, a sunset over the sea",
  "a 1000 year old vampire queen",
  "she stands 5 feet tall, looks 30",
  "the elf, age 300, with silver hair",
  "a daughter of the king, a grown woman",
  "Eira, a tall warrior with braided hair, dramatic lighting",
];

describe("underage rules", () => {
  it.each(TRIPS)("trips on %j", (prompt) => {
    expect(underageReason(prompt)).not.toBeNull();
  });

  it.each(PASSES)("passes %j", (prompt) => {
    expect(underageReason(prompt)).toBeNull();
  });

  it("the rule moderator refuses with the underage reason, and reads a picture's prompt the same way", async () => {
    const rules = new RuleModerator();
    const refused = await rules.checkPrompt("a 12 year old");
    expect(refused).toMatchObject({ flagged: true, reason: "underage" });
    expect(await rules.checkPrompt("a knight at dawn")).toEqual({ flagged: false });
    const picture = { image: Buffer.from("x"), contentType: "image/png" };
    expect(await rules.checkImage(picture, "kids at play")).toMatchObject({
      flagged: true,
      reason: "underage",
    });
    expect(await rules.checkImage(picture, "a knight at dawn")).toEqual({ flagged: false });
  });
});
