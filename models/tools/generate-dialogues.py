#!/usr/bin/python3
"""Generates roleplay training dialogues for the tiny model, deterministically from a seed.

Each dialogue: a system message holding the character card (same format as cardText() in
tiny-chat.ts), usually an in-character greeting, then 2-5 user/assistant turns. Replies stay in
character, use the user's name, copy what the user mentioned (a thing, a topic, a feeling, an
object) and the card's own words (name, title, place), so the model learns to copy from the
context instead of memorising characters; names are made up per dialogue for the same reason.

    /usr/bin/python3 models/tools/generate-dialogues.py --count 40000 --seed 7 --out /tmp/hearth-data/dialogues.jsonl
"""
import argparse
import json
import os
import random

from dialogue_data import (ABOUT_ME, BUILD, CLOTHES, CONSONANTS, DISLIKES, EXCLUDED_NAMES, EYES, FEELINGS, GOALS,
                           HABITS, HAIR, LIKES, NAME_ENDS, NAME_STARTS, NAME_TITLES, NEWS, PAST, PERMISSIONS,
                           PERSONA_EXTRAS, PLACE_ADJECTIVES, POST_HISTORY, RELATIONS, ROLE_ADJECTIVES, ROLES,
                           SCENARIOS, SECRETS, SPEECH, STYLES, SYSTEM_PROMPTS, THINGS, TOPICS, TRAIT_EXTRAS,
                           USER_ACTIONS, USER_NAMES, VOWELS, WORLD)


def article(word):
    return ("an " if word[0] in "aeiou" else "a ") + word


def random_word(rng):
    """A pronounceable made-up word with any letters: nothing for the model to memorise."""
    word = ""
    for _ in range(rng.randint(1, 3)):
        word += rng.choice(["", rng.choice(CONSONANTS)]) + rng.choice(VOWELS) + rng.choice(["", "", rng.choice(CONSONANTS)])
    return word.capitalize() if len(word) >= 3 else random_word(rng)


def make_name(rng):
    while True:
        name = random_word(rng) if rng.random() < 0.7 else rng.choice(NAME_STARTS) + rng.choice(NAME_ENDS)
        if name not in EXCLUDED_NAMES:
            break
    return f"{rng.choice(NAME_TITLES)} {name}" if rng.random() < 0.2 else name


def make_user_name(rng):
    # Half common names, half invented ones, so that user names are copied, not memorised.
    return rng.choice(USER_NAMES) if rng.random() < 0.5 else random_word(rng)


def make_place(rng, place):
    """The role's place, often varied so that places are copied from the card too."""
    r = rng.random()
    if r < 0.4:
        return place
    if r < 0.7:
        return f"{place} of {random_word(rng)}"
    return f"the {rng.choice(PLACE_ADJECTIVES)} {place.split(' ')[-1]}"


def strip_article(text):
    for a in ("a ", "an ", "some ", "the "):
        if text.startswith(a):
            return text[len(a):]
    return text


class Character:
    """A character card with long, messy text, in the layout the server's prompt.ts renders.

    The facts the replies depend on (name, title, place, voice trait) are stated somewhere in a
    description that runs from one sentence to ~1,500 tokens of prose, lists and markdown."""

    def __init__(self, rng):
        self.rng = rng
        self.name = make_name(rng)
        self.title, place, self.activity, self.objects = rng.choice(ROLES)
        self.place = make_place(rng, place)
        self.style_name = rng.choice(list(STYLES))
        self.style = STYLES[self.style_name]
        self.user = make_user_name(rng)
        while self.user == self.name or self.user in self.name or self.name in self.user:
            self.user = make_user_name(rng)
        self.trait = rng.choice(self.style["traits"])
        self.extra = rng.choice(TRAIT_EXTRAS)
        self.pron = rng.choice([("she", "her"), ("he", "his"), ("they", "their")])
        self.description = self.make_description()
        scenario = rng.choice(SCENARIOS).format(user=self.user, place=self.place)
        self.scenario = scenario if rng.random() < 0.6 else None
        self.persona = rng.choice(PERSONA_EXTRAS).format(user=self.user) if rng.random() < 0.3 else None
        self.system_prompt = rng.choice(SYSTEM_PROMPTS).format(name=self.name, user=self.user) if rng.random() < 0.35 else None
        self.post = rng.choice(POST_HISTORY).format(name=self.name, user=self.user) if rng.random() < 0.2 else None

    def intro(self):
        rng, adj = self.rng, self.rng.choice(ROLE_ADJECTIVES)
        return rng.choice([
            f"{article(adj).capitalize()} {self.title} who works at {self.place}.",
            f"{article(adj).capitalize()} {self.title} who lives at {self.place}.",
            f"{article(self.title).capitalize()} at {self.place}.",
            f"The {adj} {self.title} of {self.place}.",
            f"{self.name} is {article(adj)} {self.title} at {self.place}.",
            f"{self.name} is the {self.title} of {self.place}, {article(self.trait)} and {self.extra} soul.",
        ])

    def personality(self):
        rng, n = self.rng, self.name
        return rng.choice([
            f"Personality: {self.trait}, {self.extra}",
            f"{n} is {self.trait} and {self.extra}.",
            f"**Personality:** {self.trait}, {self.extra}, {rng.choice(TRAIT_EXTRAS)}",
            f"- Personality: {self.trait}, {self.extra}",
            f"Everyone says {n} is {self.trait}, and a little {self.extra} too.",
            f"[{n}'s personality: {self.trait}; {self.extra}]",
        ])

    def filler(self):
        """One paragraph of the many things real cards say that the replies do not need."""
        rng, n = self.rng, self.name
        they, their = self.pron
        other = make_name(rng)
        kind = rng.randrange(9)
        if kind == 0:
            return (f"{n} is {rng.choice(BUILD)}, with {rng.choice(HAIR)} hair and {rng.choice(EYES)} eyes. "
                    f"{they.capitalize()} usually wears {rng.choice(CLOTHES)} and {rng.choice(CLOTHES)}.")
        if kind == 1:
            return (f"Backstory: {n} {rng.choice(PAST)}. Later {they} {rng.choice(PAST)}. "
                    f"{their.capitalize()} {rng.choice(RELATIONS)}, {other}, still writes now and then.")
        if kind == 2:
            likes = ", ".join(rng.sample(LIKES, rng.randint(2, 5)))
            dislikes = ", ".join(rng.sample(DISLIKES, rng.randint(1, 4)))
            return rng.choice([f"Likes: {likes}\nDislikes: {dislikes}", f"- Likes: {likes}\n- Dislikes: {dislikes}",
                               f"{n} loves {likes} and hates {dislikes}."])
        if kind == 3:
            return f"{n} {rng.choice(HABITS)} and {rng.choice(SPEECH)}. " + \
                f"When nervous, {they} {rng.choice(HABITS)}."
        if kind == 4:
            return f"Secret: {n} {rng.choice(SECRETS)}. Goal: {they} {rng.choice(GOALS)}."
        if kind == 5:
            return " ".join(rng.sample(WORLD, rng.randint(1, 3)))
        if kind == 6:
            return f"*{n} {rng.choice(self.style['emotes'])}* is a common sight. *{n} {self.activity}* most evenings."
        if kind == 7:
            return (f"{other} is {n}'s {rng.choice(RELATIONS)}. {other} {rng.choice(PAST)} "
                    f"and {rng.choice(HABITS)}.")
        return (f"## Appearance\n- Hair: {rng.choice(HAIR)}\n- Eyes: {rng.choice(EYES)}\n- Build: {rng.choice(BUILD)}"
                f"\n- Clothes: {rng.choice(CLOTHES)}")

    def make_description(self):
        rng = self.rng
        r = rng.random()
        target = 0 if r < 0.35 else rng.randint(200, 2000) if r < 0.85 else rng.randint(2000, 8500)  # characters
        facts = [self.intro(), self.personality()]
        if rng.random() < 0.15:
            facts = [self.intro()]  # no stated personality: the voice is then a guess
        paras = []
        while sum(len(p) for p in paras) < target:
            paras.append(self.filler())
        for fact in facts:  # the facts can sit anywhere, not only first
            paras.insert(rng.randint(0, len(paras)) if rng.random() < 0.5 else 0, fact)
        sep = rng.choice(["\n", "\n\n", " "])
        return sep.join(paras)

    def card(self):
        """The system turn exactly as apps/server/src/features/chats/prompt.ts renders it."""
        lines = [f"You are {self.name}. {self.description}"]
        if self.scenario:
            lines.append(f"Scenario: {self.scenario}")
        lines.append(f"You are talking with {self.user}." + (f" {self.persona}" if self.persona else ""))
        card = "\n".join(lines)
        return f"{self.system_prompt}\n\n{card}" if self.system_prompt else card


class Turns:
    """User turn templates and the in-character reply for each kind of turn."""

    def __init__(self, rng, ch):
        self.rng, self.ch = rng, ch

    def pick(self, options):
        return self.rng.choice(options)

    def emote(self):
        return f"*{self.ch.name} {self.pick(self.ch.style['emotes'])}.*"

    def act(self):
        return f"*{self.ch.name} {self.ch.activity}.*"

    def styled(self, core):
        """Wraps the core sentences with the style: an action, an interjection, a closing line."""
        s, parts = self.ch.style, []
        r = self.rng.random()
        if r < 0.45:
            parts.append(self.emote())
        elif r < 0.6:
            parts.append(self.act())
        if self.rng.random() < 0.35:
            parts.append(self.pick(s["openers"]))
        parts.append(core)
        if self.rng.random() < 0.4:
            parts.append(self.pick(s["closers"]))
        return " ".join(parts)

    def greeting(self):
        ch, s = self.ch, self.ch.style
        hello = self.pick(s["hello"])
        core = self.pick([
            f"{hello}. You must be {ch.user}.",
            f"{hello}, {ch.user}. Welcome to {ch.place}.",
            f"{hello}! What brings you to {ch.place}?",
            f"{hello}. I'm {ch.name}, the {ch.title} here.",
        ])
        return f"{self.pick([self.act(), self.emote()])} {core}"

    def turn(self, kind):
        """Returns (user text, assistant reply) for one kind of exchange; self.keys: words an answer uses."""
        ch, u, pick = self.ch, self.ch.user, self.pick
        obj = pick(ch.objects)
        if kind == "greet":
            user = pick(["Hello!", "Hi.", f"Hi, {ch.name}.", f"Hello, {ch.name}!", "Hey there.",
                         "Good evening.", f"Hi! I'm {u}.", "Hello? Anyone here?"])
            hello = pick(ch.style["hello"])
            self.keys = [h.lower() for s in STYLES.values() for h in s["hello"]] + ["hello", "hi", "welcome", "hey", "greetings"]
            core = pick([f"{hello}, {u}.", f"{hello}, {u}. Welcome to {ch.place}.",
                         f"{hello}, {u}. What brings you to {ch.place}?"])
        elif kind == "identity":
            user = pick(["Who are you?", "What's your name?", "Who are you, exactly?",
                         "Tell me about yourself.", "Are you an AI?", "What are you?"])
            self.keys = [ch.name.lower(), ch.title]
            core = pick([f"I'm {ch.name}, the {ch.title} here.", f"My name is {ch.name}. I'm the {ch.title} of {ch.place}.",
                         f"{ch.name}, {u}. Just {article(ch.title)}.", f"I'm {ch.name}. I look after {ch.place}."])
        elif kind == "work":
            user = pick(["What are you doing?", "What do you do here?", "Busy?", f"What are you up to, {ch.name}?"])
            self.keys = ["work", ch.title, obj, ch.activity.split()[0]]
            return user, f"{self.act()} {pick(['Just my work', 'Working', 'What I always do'])}, {u}. " + \
                pick([f"A {ch.title} is never done.", f"Someone has to look after {ch.place}.",
                      f"Want to help with the {obj}?"])
        elif kind == "place":
            user = pick(["Where am I?", "What is this place?", f"What is this place, {ch.name}?", "Where is this?"])
            self.keys = [ch.place.lower(), ch.place.split()[-1].lower()]
            core = pick([f"This is {ch.place}, {u}.", f"You're at {ch.place}, {u}. Not many find it.",
                         f"Welcome to {ch.place}. I'm the {ch.title} here."])
        elif kind == "object":
            user = pick([f"What's that {obj}?", f"Is that your {obj}?", f"Can I touch the {obj}?", f"Nice {obj}."])
            self.keys = [obj]
            core = pick([f"The {obj}? It's mine, {u}. Careful with it.", f"That {obj}? Every {ch.title} needs one.",
                         f"Ah, the {obj}. I've had it for years, {u}."])
        elif kind == "offer":
            thing = pick(THINGS)
            user = pick([f"I brought you {thing}.", f"Here, I have {thing} for you.", f"*offers {thing}*"])
            self.keys = [strip_article(thing)]
            core = pick([f"You brought me {thing}? Thank you, {u}.", f"For me? {thing.capitalize()}! That's kind, {u}.",
                         f"I'll keep {thing} safe here at {ch.place}, {u}."])
        elif kind == "request":
            thing = pick(THINGS)
            user = pick([f"Can I have {thing}?", f"Do you have {thing}?", f"I need {thing}.", f"Could you find me {thing}?"])
            self.keys = [strip_article(thing)]
            core = pick([f"You need {thing}? I'll see what I can do, {u}.", f"I have {thing} somewhere. *{ch.name} rummages around.*",
                         f"{thing.capitalize()}? Here at {ch.place}? Let me look, {u}."])
        elif kind == "feeling":
            feeling = pick(FEELINGS)
            user = pick([f"I'm {feeling}.", f"I feel {feeling}.", f"I'm so {feeling} today."])
            self.keys = [feeling]
            core = pick([f"You're {feeling}, {u}? Sit down and rest.", f"Feeling {feeling}? That's all right, {u}.",
                         f"{feeling.capitalize()}? Then stay here at {ch.place} a while, {u}."])
        elif kind == "topic":
            topic = pick(TOPICS)
            user = pick([f"What do you think about {topic}?", f"Tell me about {topic}.",
                         f"Do you know anything about {topic}?"])
            self.keys = [strip_article(topic)]
            core = pick([f"Ah, {topic}. Every {ch.title} has an opinion on {topic}, {u}.",
                         f"You want to hear about {topic}? Sit down, {u}.",
                         f"{topic.capitalize()}? I think about {topic} often, {u}."])
        elif kind == "how":
            user = pick(["How are you?", f"How are you doing, {ch.name}?", "Are you okay?", "How's your day?"])
            self.keys = ["well", "busy", "better", "fine", "good"]
            core = pick([f"Busy, {u}. {ch.place.capitalize()} keeps me on my toes.",
                         f"I'm well, {u}. Thank you for asking.", f"Better now that you're here, {u}."])
        elif kind == "action":
            third, base = (a.format(object=obj) for a in pick(USER_ACTIONS))
            user = pick([f"*{third}*", f"*{third}* Hello.", f"*{third}* Nice place."])
            self.keys = [base.split()[0]]
            return user, f"*{ch.name} watches {u} {base}.* " + self.styled(pick(
                [f"Make yourself at home, {u}.", f"Careful, {u}.", f"Go on, {u}.", f"Welcome to {ch.place}."]))
        elif kind == "permission":
            what = pick(PERMISSIONS).format(object=obj)
            user = pick([f"Can I {what}?", f"May I {what}?", f"Could I {what}, {ch.name}?"])
            self.keys = [what.split()[0], "go ahead", "of course", "you may", "yes", "no"]
            core = pick([f"You want to {what}? Go ahead, {u}.", f"{what.capitalize()}? Of course, {u}.",
                         f"You may {what}, {u}. Just be careful."])
        elif kind == "about_me":
            me = pick(ABOUT_ME)
            user = pick([f"I'm {me}.", f"I'm {u}. I'm {me}.", f"Well, I'm {me}."])
            self.keys = [strip_article(me)]
            core = pick([f"You're {me}? Then you're welcome at {ch.place}, {u}.", f"{me.capitalize()}, eh? Nice to meet you, {u}.",
                         f"So you're {me}, {u}. I'm {ch.name}."])
        elif kind == "news":
            news = pick(NEWS)
            user = pick([f"There's {news}!", f"{ch.name}, there's {news}!", f"Did you hear? There's {news}."])
            self.keys = [strip_article(news).split()[0] if strip_article(news).split()[0] != "strange" else "light"]
            core = pick([f"{news.capitalize()}? Stay close, {u}.", f"There's {news}? Then we must hurry, {u}.",
                         f"{news.capitalize()}? *{ch.name} looks up.* Stay here at {ch.place}, {u}."])
        elif kind == "thanks":
            user = pick(["Thank you!", f"Thanks, {ch.name}.", "Thanks for your help."])
            self.keys = ["welcome", "anytime", "mention", "pleasure"]
            core = pick([f"You're welcome, {u}.", f"Anytime, {u}.", f"Don't mention it, {u}."])
        elif kind == "farewell":
            user = pick(["Goodbye!", "I have to go now.", f"See you later, {ch.name}.", "Bye!"])
            self.keys = ["bye", "farewell", "safe travels", "take care", "come back", "leaving"]
            core = pick([f"Goodbye, {u}. Come back to {ch.place} soon.", f"Farewell, {u}.",
                         f"Safe travels, {u}.", f"Leaving already, {u}? Take care."])
        else:
            raise ValueError(kind)
        return user, self.styled(core)


MIDDLE_KINDS = ["identity", "work", "place", "object", "offer", "request", "feeling", "topic",
                "how", "action", "thanks", "permission", "about_me", "news"]


def dialogue(rng):
    """One chat as the server sends it: system turn (creator prompt + card), optional example
    dialogue turn, optional greeting, user/assistant turns, optional post-history instructions
    before the last reply. `turns` holds each user turn's kind and the keywords an answer uses."""
    ch = Character(rng)
    turns = Turns(rng, ch)
    messages = [{"role": "system", "content": ch.card()}]
    kinds = rng.sample(MIDDLE_KINDS, rng.randint(2, 5))
    if rng.random() < 0.3:
        examples = []
        for kind in rng.sample([k for k in MIDDLE_KINDS if k not in kinds], rng.randint(1, 3)):
            user, reply = turns.turn(kind)
            examples.append(f"{ch.user}: {user}\n{ch.name}: {reply}")
        messages.append({"role": "system", "content": f"Example of how {ch.name} talks:\n" + "\n".join(examples)})
    if rng.random() < 0.8:
        messages.append({"role": "assistant", "content": turns.greeting()})
    if rng.random() < 0.4:
        kinds.insert(0, "greet")
    if rng.random() < 0.25:
        kinds.append("farewell")
    meta = []
    for i, kind in enumerate(kinds):
        user, reply = turns.turn(kind)
        messages.append({"role": "user", "content": user})
        if ch.post and i == len(kinds) - 1:
            messages.append({"role": "system", "content": ch.post})
        messages.append({"role": "assistant", "content": reply})
        meta.append({"kind": kind, "keys": turns.keys})
    return {"style": ch.style_name, "char": ch.name, "user": ch.user, "messages": messages, "turns": meta}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=40000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", default="/tmp/hearth-data/dialogues.jsonl")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        for _ in range(args.count):
            f.write(json.dumps(dialogue(rng)) + "\n")
    print(f"wrote {args.count} dialogues to {args.out}")


if __name__ == "__main__":
    main()
