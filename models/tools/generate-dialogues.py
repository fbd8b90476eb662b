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

from dialogue_data import (ABOUT_ME, CONSONANTS, EXCLUDED_NAMES, PLACE_ADJECTIVES, VOWELS, FEELINGS, NAME_ENDS, NAME_STARTS, NAME_TITLES, NEWS,
                           PERMISSIONS, ROLE_ADJECTIVES, ROLES, SCENARIOS, STYLES, THINGS, TOPICS, TRAIT_EXTRAS,
                           USER_ACTIONS, USER_NAMES)


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


class Character:
    def __init__(self, rng):
        self.name = make_name(rng)
        self.title, place, self.activity, self.objects = rng.choice(ROLES)
        self.place = make_place(rng, place)
        self.style_name = rng.choice(list(STYLES))
        self.style = STYLES[self.style_name]
        self.user = make_user_name(rng)
        while self.user == self.name:
            self.user = make_user_name(rng)
        adjective = rng.choice(ROLE_ADJECTIVES)
        self.description = rng.choice([
            f"{article(adjective).capitalize()} {self.title} who works at {self.place}.",
            f"{article(adjective).capitalize()} {self.title} who lives at {self.place}.",
            f"{article(self.title).capitalize()} at {self.place}.",
            f"The {adjective} {self.title} of {self.place}.",
        ])
        traits = [rng.choice(self.style["traits"]), rng.choice(TRAIT_EXTRAS)]
        self.personality = ", ".join(traits) if rng.random() < 0.9 else None
        scenario = rng.choice(SCENARIOS).format(user=self.user, place=self.place)
        self.scenario = scenario if rng.random() < 0.7 else None

    def card(self):
        """Same text as cardText() in tiny-chat.ts."""
        lines = [f"You are {self.name}. {self.description}"]
        if self.personality:
            lines.append(f"Personality: {self.personality}")
        if self.scenario:
            lines.append(f"Scenario: {self.scenario}")
        lines.append(f"You are talking with {self.user}.")
        return "\n".join(lines)


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
        """Returns (user text, assistant reply) for one kind of exchange."""
        ch, u, pick = self.ch, self.ch.user, self.pick
        obj = pick(ch.objects)
        if kind == "greet":
            user = pick(["Hello!", "Hi.", f"Hi, {ch.name}.", f"Hello, {ch.name}!", "Hey there.",
                         "Good evening.", f"Hi! I'm {u}.", "Hello? Anyone here?"])
            hello = pick(ch.style["hello"])
            core = pick([f"{hello}, {u}.", f"{hello}, {u}. Welcome to {ch.place}.",
                         f"{hello}, {u}. What brings you to {ch.place}?"])
        elif kind == "identity":
            user = pick(["Who are you?", "What's your name?", "Who are you, exactly?",
                         "Tell me about yourself.", "Are you an AI?", "What are you?"])
            core = pick([f"I'm {ch.name}, the {ch.title} here.", f"My name is {ch.name}. I'm the {ch.title} of {ch.place}.",
                         f"{ch.name}, {u}. Just {article(ch.title)}.", f"I'm {ch.name}. I look after {ch.place}."])
        elif kind == "work":
            user = pick(["What are you doing?", "What do you do here?", "Busy?", f"What are you up to, {ch.name}?"])
            return user, f"{self.act()} {pick(['Just my work', 'Working', 'What I always do'])}, {u}. " + \
                pick([f"A {ch.title} is never done.", f"Someone has to look after {ch.place}.",
                      f"Want to help with the {obj}?"])
        elif kind == "place":
            user = pick(["Where am I?", "What is this place?", f"What is this place, {ch.name}?", "Where is this?"])
            core = pick([f"This is {ch.place}, {u}.", f"You're at {ch.place}, {u}. Not many find it.",
                         f"Welcome to {ch.place}. I'm the {ch.title} here."])
        elif kind == "object":
            user = pick([f"What's that {obj}?", f"Is that your {obj}?", f"Can I touch the {obj}?", f"Nice {obj}."])
            core = pick([f"The {obj}? It's mine, {u}. Careful with it.", f"That {obj}? Every {ch.title} needs one.",
                         f"Ah, the {obj}. I've had it for years, {u}."])
        elif kind == "offer":
            thing = pick(THINGS)
            user = pick([f"I brought you {thing}.", f"Here, I have {thing} for you.", f"*offers {thing}*"])
            core = pick([f"You brought me {thing}? Thank you, {u}.", f"For me? {thing.capitalize()}! That's kind, {u}.",
                         f"I'll keep {thing} safe here at {ch.place}, {u}."])
        elif kind == "request":
            thing = pick(THINGS)
            user = pick([f"Can I have {thing}?", f"Do you have {thing}?", f"I need {thing}.", f"Could you find me {thing}?"])
            core = pick([f"You need {thing}? I'll see what I can do, {u}.", f"I have {thing} somewhere. *{ch.name} rummages around.*",
                         f"{thing.capitalize()}? Here at {ch.place}? Let me look, {u}."])
        elif kind == "feeling":
            feeling = pick(FEELINGS)
            user = pick([f"I'm {feeling}.", f"I feel {feeling}.", f"I'm so {feeling} today."])
            core = pick([f"You're {feeling}, {u}? Sit down and rest.", f"Feeling {feeling}? That's all right, {u}.",
                         f"{feeling.capitalize()}? Then stay here at {ch.place} a while, {u}."])
        elif kind == "topic":
            topic = pick(TOPICS)
            user = pick([f"What do you think about {topic}?", f"Tell me about {topic}.",
                         f"Do you know anything about {topic}?"])
            core = pick([f"Ah, {topic}. Every {ch.title} has an opinion on {topic}, {u}.",
                         f"You want to hear about {topic}? Sit down, {u}.",
                         f"{topic.capitalize()}? I think about {topic} often, {u}."])
        elif kind == "how":
            user = pick(["How are you?", f"How are you doing, {ch.name}?", "Are you okay?", "How's your day?"])
            core = pick([f"Busy, {u}. {ch.place.capitalize()} keeps me on my toes.",
                         f"I'm well, {u}. Thank you for asking.", f"Better now that you're here, {u}."])
        elif kind == "action":
            third, base = (a.format(object=obj) for a in pick(USER_ACTIONS))
            user = pick([f"*{third}*", f"*{third}* Hello.", f"*{third}* Nice place."])
            return user, f"*{ch.name} watches {u} {base}.* " + self.styled(pick(
                [f"Make yourself at home, {u}.", f"Careful, {u}.", f"Go on, {u}.", f"Welcome to {ch.place}."]))
        elif kind == "permission":
            what = pick(PERMISSIONS).format(object=obj)
            user = pick([f"Can I {what}?", f"May I {what}?", f"Could I {what}, {ch.name}?"])
            core = pick([f"You want to {what}? Go ahead, {u}.", f"{what.capitalize()}? Of course, {u}.",
                         f"You may {what}, {u}. Just be careful."])
        elif kind == "about_me":
            me = pick(ABOUT_ME)
            user = pick([f"I'm {me}.", f"I'm {u}. I'm {me}.", f"Well, I'm {me}."])
            core = pick([f"You're {me}? Then you're welcome at {ch.place}, {u}.", f"{me.capitalize()}, eh? Nice to meet you, {u}.",
                         f"So you're {me}, {u}. I'm {ch.name}."])
        elif kind == "news":
            news = pick(NEWS)
            user = pick([f"There's {news}!", f"{ch.name}, there's {news}!", f"Did you hear? There's {news}."])
            core = pick([f"{news.capitalize()}? Stay close, {u}.", f"There's {news}? Then we must hurry, {u}.",
                         f"{news.capitalize()}? *{ch.name} looks up.* Stay here at {ch.place}, {u}."])
        elif kind == "thanks":
            user = pick(["Thank you!", f"Thanks, {ch.name}.", "Thanks for your help."])
            core = pick([f"You're welcome, {u}.", f"Anytime, {u}.", f"Don't mention it, {u}."])
        elif kind == "farewell":
            user = pick(["Goodbye!", "I have to go now.", f"See you later, {ch.name}.", "Bye!"])
            core = pick([f"Goodbye, {u}. Come back to {ch.place} soon.", f"Farewell, {u}.",
                         f"Safe travels, {u}.", f"Leaving already, {u}? Take care."])
        else:
            raise ValueError(kind)
        return user, self.styled(core)


MIDDLE_KINDS = ["identity", "work", "place", "object", "offer", "request", "feeling", "topic",
                "how", "action", "thanks", "permission", "about_me", "news"]


def dialogue(rng):
    ch = Character(rng)
    turns = Turns(rng, ch)
    messages = [{"role": "system", "content": ch.card()}]
    if rng.random() < 0.8:
        messages.append({"role": "assistant", "content": turns.greeting()})
    kinds = rng.sample(MIDDLE_KINDS, rng.randint(2, 4))
    if rng.random() < 0.4:
        kinds.insert(0, "greet")
    if rng.random() < 0.25:
        kinds.append("farewell")
    for kind in kinds:
        user, reply = turns.turn(kind)
        messages += [{"role": "user", "content": user}, {"role": "assistant", "content": reply}]
    return {"style": ch.style_name, "messages": messages}


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
