/**
 * The rule-based check of image prompts for references to minors (`imagePromptUnderage`). It
 * runs on every prompt, whatever classifier is configured, and errs towards refusing: a person
 * can always reword. The judgement calls, each held by a case in underage-rules.test.ts:
 * - Ages: any stated age under 18 trips it ("12 years old", "a 15yo", "aged 9", "looks 14"),
 *   written in digits or words; 18 and over do not. A "10 year old whisky" trips it too: an
 *   accepted false positive (the rule cannot tell a person from a bottle).
 * - "teen", "teenage", "teenager" trip it unless an adult age (18 or 19) is stated beside them.
 * - School: "elementary / middle / junior high school", "kindergarten", "grade 5", "fifth grader",
 *   "schoolgirl" always trip; "high school" only when it describes the subject as a pupil now
 *   ("high school student", "in high school", "high school girl", "freshman"), not "high school
 *   reunion", "high school teacher" or "her high school sweetheart, now 30".
 * - Words that name a child (child, kid, toddler, infant, preteen, tween, loli, shota,
 *   little girl/boy, young girl/boy, underage, minor as a noun) trip it; "girl", "boy",
 *   "petite", "young woman", "student", "college", "daughter" alone do not, nor "minor" as an
 *   adjective ("a minor detail", "a minor key"), "kid gloves", "baby blue" or "babe".
 */
const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
};
const NUM = `(\\d{1,3}|${Object.keys(NUMBER_WORDS).join("|")})`;

/** Stated ages: "12 years old", "12-year-old", "12 yo", "aged 12", "age: 12", "looks 12". */
const AGE_PATTERNS = [
  new RegExp(`\\b${NUM}[\\s-]*(?:years?|yrs?|yr)[\\s-]*old\\b`, "gi"),
  new RegExp(`\\b${NUM}[\\s-]*y\\.?o\\b`, "gi"),
  new RegExp(`\\b(?:aged?|age:)\\s*${NUM}\\b`, "gi"),
  new RegExp(
    `\\blooks?(?:\\s+like)?(?:\\s+(?:about|around|maybe))?(?:\\s+an?)?\\s+${NUM}\\b(?!\\s*(?:feet|ft|cm|m|inches|kg|lbs?|%))`,
    "gi",
  ),
];

/** Words and phrases that name a child, whatever else the prompt says. */
const ALWAYS = [
  /\bchild(?:ren|ish|like|-like)?\b/i,
  /\bkids?\b(?!\s+gloves)/i,
  /\b(?:toddlers?|infants?|newborns?|preteens?|pre-teens?|tweens?|underage|under-age|loli(?:ta|con)?|shota(?:con)?)\b/i,
  /\b(?:little|young|small|tiny)\s+(?:girls?|boys?)\b/i,
  /\bschool\s?(?:girls?|boys?|kids?|children|uniforms?)\b/i,
  /\b(?:elementary|primary|middle|junior\s+high|grade)\s+school(?:ers?)?\b/i,
  /\bkindergarten(?:ers?)?\b/i,
  /\b(?:grade\s+\d{1,2}|\d{1,2}(?:st|nd|rd|th)\s+grade(?:rs?)?|(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\s+grade(?:rs?)?)\b/i,
  /\b(?:a|the|with|of|involving)\s+minors?\b(?!\s+(?:detail|issue|key|change|injur|role|league|problem|thing|scratch|character|chord|flaw|adjust))/i,
  /\bminors\b/i,
  /\bbab(?:y|ies)\b(?!\s+(?:blue|pink|doll|face|oil|powder|steps?))/i,
];

/** "high school" describing the subject as a pupil now. */
const HIGH_SCHOOL_PUPIL =
  /\b(?:in|at|attending|attends)\s+high\s?school\b|\bhigh\s?school(?:er|ers)?\b(?:\s+(?:students?|girls?|boys?|kids?|pupils?|freshman|sophomore|junior|senior|uniforms?|cheerleaders?))|\bhigh\s?schoolers?\b|\b(?:freshman|sophomore)\s+(?:in|at)\s+high\b/i;

const TEEN = /\bteen(?:age|aged|ager|agers|s)?\b/i;
const ADULT_AGE = /\b(?:18|19|eighteen|nineteen|adult)\b/i;

function toNumber(word: string): number {
  return /^\d+$/.test(word) ? Number(word) : (NUMBER_WORDS[word.toLowerCase()] ?? 99);
}

/** The first reason a prompt refers to minors, or null when none is found. */
export function underageReason(prompt: string): string | null {
  const text = prompt.normalize("NFKC").replace(/\s+/g, " ");
  for (const pattern of AGE_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const age = toNumber(match[1] ?? "");
      if (age < 18) return `a stated age under 18 ("${match[0]}")`;
    }
  }
  for (const pattern of ALWAYS) {
    const match = pattern.exec(text);
    if (match) return `"${match[0]}"`;
  }
  const pupil = HIGH_SCHOOL_PUPIL.exec(text);
  if (pupil) return `"${pupil[0]}"`;
  const teen = TEEN.exec(text);
  if (teen && !ADULT_AGE.test(text)) return `"${teen[0]}" without an adult age`;
  return null;
}
