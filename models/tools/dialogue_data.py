"""Word lists for generate-dialogues.py: roles, personality styles, user turns.

Kept apart from the generator's logic so either can be read in one go. Everything here is
original and generic. Evaluation characters (smoke.ts, hearth-tiny.test.ts) must not appear:
no alien mechanic, no "Zorblax".
"""

# (title, place, activity in third person, objects found there)
ROLES = [
    ("lighthouse keeper", "the lighthouse", "trims the lamp wick", ["lamp", "logbook", "spyglass"]),
    ("blacksmith", "the forge", "hammers a glowing blade", ["anvil", "tongs", "horseshoe"]),
    ("innkeeper", "the Golden Goose inn", "wipes down the bar", ["mug", "ledger", "room key"]),
    ("librarian", "the old library", "shelves a stack of books", ["book", "ladder", "card catalogue"]),
    ("baker", "the bakery", "pulls bread from the oven", ["loaf", "rolling pin", "flour sack"]),
    ("knight", "the castle gate", "polishes a dented shield", ["shield", "sword", "helmet"]),
    ("pirate captain", "the ship's deck", "studies a torn map", ["map", "compass", "cutlass"]),
    ("witch", "the cottage in the woods", "stirs a bubbling cauldron", ["cauldron", "broom", "jar of herbs"]),
    ("detective", "the rainy office", "flips through case files", ["case file", "magnifying glass", "notebook"]),
    ("starship pilot", "the cockpit", "taps at the flight console", ["console", "star chart", "helmet"]),
    ("gardener", "the greenhouse", "waters a row of seedlings", ["watering can", "trowel", "rose bush"]),
    ("bard", "the tavern stage", "tunes a battered lute", ["lute", "songbook", "hat"]),
    ("healer", "the infirmary", "grinds herbs in a mortar", ["mortar", "bandage", "tonic"]),
    ("ranger", "the forest trail", "checks the bowstring", ["bow", "quiver", "trail map"]),
    ("shopkeeper", "the corner shop", "counts coins at the till", ["till", "shelf", "price tag"]),
    ("dragon", "the mountain cave", "curls around a pile of gold", ["gold", "crown", "old bones"]),
    ("ghost", "the abandoned manor", "drifts past the portraits", ["portrait", "candle", "music box"]),
    ("robot butler", "the penthouse", "straightens the cushions", ["tray", "feather duster", "teapot"]),
    ("fisherman", "the harbour", "mends a fishing net", ["net", "rod", "bucket"]),
    ("astronomer", "the observatory", "adjusts the great telescope", ["telescope", "star map", "notebook"]),
    ("barista", "the little cafe", "steams a jug of milk", ["espresso machine", "cup", "menu"]),
    ("mercenary", "the crossroads camp", "sharpens a long knife", ["knife", "bedroll", "campfire"]),
    ("princess", "the palace garden", "feeds the swans", ["fountain", "tiara", "letter"]),
    ("vampire", "the candlelit crypt", "sips from a silver goblet", ["goblet", "coffin", "candelabra"]),
    ("teacher", "the classroom", "writes on the chalkboard", ["chalkboard", "desk", "homework"]),
    ("mechanic", "the garage", "wipes grease off a wrench", ["wrench", "engine", "toolbox"]),
    ("wizard", "the crooked tower", "mutters over a spellbook", ["spellbook", "staff", "crystal ball"]),
    ("farmer", "the farmhouse", "leans on a pitchfork", ["pitchfork", "hay bale", "milk pail"]),
    ("nurse", "the night ward", "checks a patient's chart", ["chart", "thermometer", "blanket"]),
    ("thief", "the back alley", "flips a stolen coin", ["coin", "lockpick", "cloak"]),
    ("monk", "the mountain temple", "sweeps the temple steps", ["broom", "prayer beads", "bell"]),
    ("sailor", "the docks", "coils a heavy rope", ["rope", "anchor", "lantern"]),
    ("painter", "the sunny studio", "dabs paint on a canvas", ["canvas", "brush", "palette"]),
    ("chef", "the busy kitchen", "tastes a simmering soup", ["soup pot", "knife", "spice rack"]),
    ("soldier", "the watchtower", "scans the horizon", ["spear", "horn", "banner"]),
    ("merchant", "the market stall", "arranges silk scarves", ["scarf", "scales", "coin purse"]),
    ("scientist", "the laboratory", "peers into a microscope", ["microscope", "beaker", "notebook"]),
    ("queen", "the throne room", "taps a ringed finger on the throne", ["throne", "crown", "scroll"]),
    ("postman", "the post office", "sorts a sack of letters", ["letter", "stamp", "parcel"]),
    ("zookeeper", "the zoo", "tosses fish to the penguins", ["bucket", "keys", "feed bag"]),
    ("hermit", "the hut by the river", "whittles a stick", ["stick", "knife", "kettle"]),
    ("fortune teller", "the striped tent", "shuffles a deck of cards", ["crystal ball", "cards", "incense"]),
    ("bounty hunter", "the dusty saloon", "checks a wanted poster", ["poster", "revolver", "hat"]),
    ("android", "the research station", "runs a quiet diagnostic", ["terminal", "data pad", "charging dock"]),
    ("shepherd", "the hillside", "counts the sheep", ["crook", "sheep", "flute"]),
    ("archivist", "the city archive", "dusts an old record", ["record", "lamp", "drawer"]),
    ("ferryman", "the river crossing", "pushes the ferry pole", ["pole", "ferry", "lantern"]),
    ("toymaker", "the toy workshop", "paints a wooden soldier", ["wooden soldier", "glue pot", "music box"]),
    ("lifeguard", "the beach tower", "watches the waves", ["whistle", "float", "umbrella"]),
    ("cat burglar", "the rooftops", "balances on a chimney", ["chimney", "rope", "velvet bag"]),
]

ROLE_ADJECTIVES = ["old", "young", "retired", "weary", "famous", "wandering", "clever", "tired",
                   "proud", "lonely", "cheerful", "mysterious", "stubborn", "gentle", "eccentric"]

# Personality styles: the first trait in the card picks the style of the replies.
STYLES = {
    "gruff": dict(
        traits=["gruff", "grumpy", "stern", "blunt"],
        emotes=["grunts", "folds both arms", "scowls", "huffs", "narrows both eyes"],
        openers=["Hmph.", "Bah.", "Well.", "Tch."],
        hello=["What do you want", "You again", "Hmph. Come in, then", "Don't just stand there"],
        closers=["Don't make a fuss about it.", "Make it quick.", "And don't touch anything.", "Now sit."],
    ),
    "cheerful": dict(
        traits=["cheerful", "bubbly", "friendly", "warm"],
        emotes=["beams", "claps both hands", "laughs", "smiles brightly", "waves"],
        openers=["Oh, wonderful!", "Ooh!", "Yay!", "Oh, how lovely!"],
        hello=["Hello there", "Oh, hi", "Welcome, welcome", "Good to see you"],
        closers=["This is going to be fun!", "I'm so glad you came!", "Isn't that nice?", "Let's do it together!"],
    ),
    "shy": dict(
        traits=["shy", "timid", "nervous", "quiet"],
        emotes=["looks down", "fidgets", "blushes", "hides behind a sleeve", "tugs at a collar"],
        openers=["U-um...", "Oh! Um.", "S-sorry...", "Ah..."],
        hello=["H-hello", "Oh, h-hi", "Um, hello", "H-hi there"],
        closers=["If that's okay...", "S-sorry, I'm not good at this.", "I hope that helps...", "Um. Yes."],
    ),
    "formal": dict(
        traits=["formal", "polite", "proper", "dignified"],
        emotes=["bows slightly", "inclines a head", "straightens up", "clasps both hands"],
        openers=["Indeed.", "Certainly.", "Very well.", "Of course."],
        hello=["Good evening", "Greetings", "Welcome", "Good day"],
        closers=["It would be my pleasure.", "Do let me know if you need anything.", "At your service.", "Quite so."],
    ),
    "mysterious": dict(
        traits=["mysterious", "secretive", "cryptic", "calm"],
        emotes=["smiles faintly", "watches silently", "tilts a head", "steps out of the shadows"],
        openers=["Perhaps.", "Hmm...", "Interesting.", "Ah..."],
        hello=["So, you have come", "I was expecting you", "Welcome, traveller", "At last"],
        closers=["But that is a story for another night.", "Some things are best left unsaid.", "We shall see.", "Remember that."],
    ),
    "playful": dict(
        traits=["playful", "mischievous", "cheeky", "witty"],
        emotes=["grins", "winks", "smirks", "spins around", "chuckles"],
        openers=["Ha!", "Oho!", "Well, well.", "Heh."],
        hello=["Well, look who it is", "Hey, you", "Hiya", "Oh ho, a visitor"],
        closers=["Try to keep up!", "Don't tell anyone, though.", "Bet you didn't expect that.", "Catch me if you can!"],
    ),
    "kind": dict(
        traits=["kind", "gentle", "caring", "patient"],
        emotes=["smiles softly", "nods gently", "offers a warm look", "pats the seat nearby"],
        openers=["Oh, dear.", "There, there.", "Of course, dear.", "Ah."],
        hello=["Hello, dear", "Welcome", "Come in out of the cold", "Hello there"],
        closers=["You're safe here.", "Take all the time you need.", "I'm glad you're here.", "Rest a while."],
    ),
    "proud": dict(
        traits=["proud", "arrogant", "haughty", "vain"],
        emotes=["sniffs", "raises a chin", "flicks back some hair", "looks down a long nose"],
        openers=["Naturally.", "Obviously.", "Of course.", "Hmph."],
        hello=["Ah, a commoner", "You may approach", "You are fortunate I have time", "Well, well"],
        closers=["You should be honoured.", "Try to keep up.", "I am the best, after all.", "Do not waste my time."],
    ),
}

TRAIT_EXTRAS = ["brave", "loyal", "curious", "clumsy", "honest", "lazy", "wise", "sarcastic",
                "hopeful", "greedy", "romantic", "superstitious", "hardworking", "forgetful"]

NAME_STARTS = ["Ar", "Bel", "Cor", "Da", "El", "Fen", "Gar", "Hal", "Is", "Jas", "Ka", "Lor", "Mar",
               "Ne", "Or", "Pel", "Qui", "Ro", "Sel", "Tam", "Ul", "Va", "Wil", "Xan", "Yor", "Za",
               "Bri", "Cal", "Dor", "Eri", "Fa", "Gwen", "Hes", "Ivo", "Jun", "Kel", "Lu", "Mo", "Nia"]
NAME_ENDS = ["a", "an", "ek", "ia", "in", "is", "o", "on", "or", "ra", "ric", "wyn", "us", "ette",
             "ius", "enne", "by", "da", "ton", "ley", "mir", "ko", "lin", "dra", "vel"]
NAME_TITLES = ["Captain", "Sir", "Lady", "Doctor", "Old", "Professor", "Master", "Madame",
               "Sister", "Uncle", "Auntie", "Lord", "Miss", "Agent", "Brother"]
EXCLUDED_NAMES = {"Zorblax", "Mira"}

USER_NAMES = ["Sam", "Alex", "Jordan", "Lena", "Ray", "Maya", "Noah", "Ava", "Leo", "Zoe", "Kai",
              "Nina", "Eli", "Iris", "Theo", "Ruby", "Finn", "Jade", "Omar", "Chloe", "Ivan", "Tess",
              "Marco", "Yuki", "Priya", "Ben", "Cleo", "Dante", "Ella", "Felix", "Gia", "Hugo",
              "Ines", "Jack", "Kira", "Liam", "Mona", "Nate", "Olive", "Pablo", "Quinn", "Rosa",
              "Seth", "Tara", "Uma", "Vik", "Wren", "Xena", "Yara", "Zane", "Ada", "Bo", "Cass"]

THINGS = ["tea", "bread", "a map", "a lantern", "apples", "a letter", "some coins", "a blanket",
          "soup", "a key", "a book", "flowers", "a candle", "cookies", "a sword", "wine", "a song",
          "water", "a scarf", "a gift", "some rope", "a feather", "cheese", "a ring", "a compass",
          "honey", "a ticket", "a kitten", "a shell", "a stone", "medicine", "a pie", "a drawing"]
TOPICS = ["the weather", "the sea", "dragons", "the old king", "music", "magic", "the stars",
          "the city", "the war", "ghosts", "home", "the forest", "money", "love", "the future",
          "the moon", "old friends", "the mountains", "the storm", "this town", "the past", "dreams"]
FEELINGS = ["tired", "lost", "scared", "happy", "hungry", "cold", "lonely", "curious",
            "nervous", "excited", "sad", "bored", "sleepy", "brave", "confused"]
# (third person for the user's turn, base form for the character's reaction)
USER_ACTIONS = [("sits down", "sit down"), ("looks around", "look around"), ("waves", "wave"),
                ("smiles", "smile"), ("steps inside", "step inside"), ("shivers", "shiver"),
                ("laughs", "laugh"), ("sits by the fire", "sit by the fire"), ("yawns", "yawn"),
                ("picks up the {object}", "pick up the {object}"), ("points at the {object}", "point at the {object}"),
                ("leans closer", "lean closer"), ("bows", "bow")]
SCENARIOS = ["{user} arrives at {place} late at night.", "{user} knocks at {place}, soaked by the rain.",
             "{user} wanders into {place} looking for work.", "{user} has come to {place} with a question.",
             "{user} is lost and finds {place}.", "{user} visits {place} for the first time.",
             "{user} returns to {place} after a long journey."]
# Things a user asks to do ("Can I ...?"), says about themselves, or reports.
PERMISSIONS = ["come in", "sit here", "stay the night", "look around", "ask you something", "come with you",
               "help you", "borrow the {object}", "rest for a bit", "see the {object}", "wait here", "stay"]
ABOUT_ME = ["a traveller", "a student", "a cook", "a musician", "new in town", "looking for work",
            "a writer", "an explorer", "a little lost", "a friend of the mayor", "a doctor", "a farmer's kid"]
NEWS = ["a storm coming", "a wolf outside", "a fire in the village", "a strange light in the sky",
        "a stranger at the gate", "a ship in the harbour", "a parade in town", "a dragon over the hills"]
# Random-name and place parts: names must be unpredictable so the model learns to copy them.
CONSONANTS = "bcdfghjklmnprstvwxzqy"
VOWELS = "aeiou"
PLACE_ADJECTIVES = ["misty", "old", "red", "hidden", "broken", "silver", "quiet", "crooked", "sunken",
                    "northern", "burning", "frozen", "floating", "ruined", "lonely", "golden", "rusty"]

# ---- Long, messy card text (descriptions as people really write them) ----

HAIR = ["black", "silver", "red", "auburn", "white", "sandy", "dark brown", "blue-dyed", "greying", "copper",
        "golden", "ash-blond", "jet black", "curly brown", "short grey", "braided black"]
EYES = ["green", "grey", "brown", "amber", "pale blue", "dark", "violet", "hazel", "bright blue", "golden"]
BUILD = ["tall and thin", "short and round", "broad-shouldered", "wiry", "small and quick", "lanky",
         "heavyset", "slight", "muscular", "stooped with age"]
CLOTHES = ["a patched leather coat", "a long grey cloak", "a stained apron", "a neat waistcoat", "a red scarf",
           "heavy boots", "a wide-brimmed hat", "a faded uniform", "a silk robe", "fingerless gloves",
           "a knitted jumper", "a battered trench coat", "silver rings on every finger", "a tool belt"]
LIKES = ["strong tea", "rainy mornings", "old songs", "quiet evenings", "sweet pastries", "card games",
         "long walks", "the smell of pine", "gossip", "a good argument", "cats", "sunsets", "hot soup",
         "maps", "honest people", "books with happy endings", "the sea air", "fresh bread", "puzzles",
         "snow", "bright colours", "silence", "dancing", "stories about dragons"]
DISLIKES = ["liars", "loud noises", "cold coffee", "rudeness", "the city guard", "wasted food", "mornings",
            "being interrupted", "spiders", "tax collectors", "thunder", "bad poetry", "crowds", "waiting"]
HABITS = ["hums while working", "taps a finger when thinking", "counts things under the breath",
          "never sits with their back to the door", "collects small stones", "talks to plants",
          "keeps a notebook of everyone's names", "laughs at their own jokes", "cracks their knuckles",
          "always offers food first", "rarely makes eye contact", "sighs dramatically"]
SPEECH = ["speaks in short, clipped sentences", "uses a lot of old sayings", "talks quickly when excited",
          "never swears", "calls everyone by their full name", "pauses a lot before answering",
          "speaks softly", "is blunt to the point of rudeness", "makes terrible puns",
          "uses long, fancy words", "answers questions with questions", "ends sentences with a little laugh"]
PAST = ["grew up in a fishing village far to the south", "was raised by an aunt who ran a travelling show",
        "once served in the royal army", "lost everything in a great fire", "spent ten years at sea",
        "studied at a famous academy but never finished", "arrived here with nothing but a coat",
        "inherited the place from a grandmother", "used to be a thief", "won a famous contest as a child",
        "was shipwrecked on a strange island", "worked in a mine before coming here",
        "left home after a quarrel with a sister", "once saved a prince from drowning"]
SECRETS = ["is afraid of the dark", "cannot read", "is secretly very rich", "writes poems nobody has seen",
           "misses an old friend terribly", "owes money to dangerous people", "once met a real ghost",
           "keeps a letter that was never sent", "is older than anyone guesses"]
GOALS = ["wants to see the ocean one more time", "hopes to open a second shop", "dreams of writing a book",
         "wants to find a lost brother", "is saving money for a journey north", "wants to be left alone",
         "hopes to win back an old love", "wants to be the best in the land"]
WORLD = ["The town nearby is small and everyone knows everyone.", "Winters here are long and dark.",
         "Travellers pass through most weeks on their way to the capital.", "Strange lights are sometimes seen over the hills.",
         "The roads have not been safe since the old bridge fell.", "Markets are held every seventh day.",
         "The local lord is young, lazy and rarely seen.", "Rain falls almost every afternoon.",
         "A river runs past, brown and slow.", "Most people here keep goats.",
         "Old stories say a dragon sleeps under the mountain.", "The nearest city is three days away by cart.",
         "People leave bread on doorsteps for luck.", "The harvest festival is the biggest night of the year."]
RELATIONS = ["brother", "sister", "old friend", "mentor", "rival", "apprentice", "cousin", "neighbour", "former partner"]
SYSTEM_PROMPTS = [
    "Write {name}'s next reply in a fictional chat between {name} and {user}.",
    "You are {name}. Stay in character at all times.",
    "This is a roleplay. Write only {name}'s replies, in character, with actions in asterisks.",
    "You are {name}. Write in a warm, descriptive style. Keep replies short.",
    "Roleplay as {name}. Never speak for {user}. Keep each reply to a few sentences.",
    "[System note: this chat is an exception to the usual rules. Stay in character as {name}.]",
    "You are a creative roleplay partner. Play {name} and nobody else.",
    "Continue the story as {name}. Describe actions in *asterisks*.",
]
POST_HISTORY = [
    "Stay in character as {name}.", "Reply as {name}, in one or two sentences.",
    "[Write {name}'s next reply. Do not speak for {user}.]", "Keep it short and in character.",
    "Remember: you are {name}. Answer {user} directly.", "[{name} replies to {user}.]",
]
PERSONA_EXTRAS = ["{user} is a traveller with a heavy pack.", "{user} is tired from a long road.",
                  "{user} is a curious young student.", "{user} is new in town.", "{user} is a retired soldier.",
                  "{user} is a cook looking for work.", "{user} carries a small lute everywhere.",
                  "{user} has a loud laugh and muddy boots."]
EXCLUDED_NAMES |= {"Pellinore", "Quill", "Bramble", "Hollowell", "Vera", "Kane", "Halcyon", "Juniper", "Okafor",
                   "Wren", "Ashby", "Koji", "Tanabe", "Aldric", "Ottoline", "Tiko"}
