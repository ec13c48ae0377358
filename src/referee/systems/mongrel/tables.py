"""The Mongrel text's lists and numbers as data (Mongrel, Character Creation; The Seven Houses).

Nothing here computes: the Identities, Areas, the Expertise catalogue with
each Expertise's governing Identity and Area, the Power lists, the Houses and
their opinions of one another, and the default target attributes (RULINGS).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final, Literal

IdentityName = Literal["man", "beast", "demon"]
IDENTITIES: Final[tuple[IdentityName, ...]] = ("man", "beast", "demon")

ATTRIBUTES: Final[tuple[str, ...]] = ("size", "spirit", "physique", "beauty", "speed", "social")
PAIRS: Final[tuple[tuple[str, str], ...]] = (
    ("size", "spirit"),
    ("physique", "beauty"),
    ("speed", "social"),
)
PAIR_SUM: Final = 8
TRACK: Final[tuple[str, ...]] = ("size", "physique")
"""The attributes the Size/Physique table is drawn from (Mongrel, Physical damage)."""
TRACK_LOW: Final = 1
TRACK_HIGH: Final = 7
"""The Size/Physique table's rows and columns run 1 to 7 (Mongrel, Physical damage): a
character's Size and Physique are always on it (0 would make any hit terminal)."""
IDENTITY_POINTS: Final = 6

AREAS: Final = MappingProxyType(
    {"A": "Awareness", "B": "Violence", "C": "Fear", "D": "Charisma", "E": "Education"}
)

CATEGORY: Final = MappingProxyType({"demon": "Sorcery", "man": "Tech", "beast": "Bestial"})
"""Which Expertise category each Identity governs (Mongrel, Expertise)."""

POWER: Final = MappingProxyType(
    {"demon": "Diabolic Power", "man": "Borg Power", "beast": "Animal Power"}
)
"""The Power Expertise of each Identity."""

EXPERTISE: Final = MappingProxyType(
    {
        # Sorcery (Demon)
        "Know": ("demon", "A"),
        "Resist": ("demon", "A"),
        "Burn": ("demon", "B"),
        "Chill": ("demon", "C"),
        "Lie": ("demon", "D"),
        "Occult": ("demon", "E"),
        "Diabolic Power": ("demon", None),
        # Tech (Man)
        "Missile": ("man", "A"),
        "Melee": ("man", "B"),
        "Bureaucrat": ("man", "C"),
        "Convince": ("man", "D"),
        "Negotiate": ("man", "D"),
        "Information": ("man", "E"),
        "Repair": ("man", "E"),
        "Borg Power": ("man", None),
        # Bestial (Beast)
        "Stalk": ("beast", "A"),
        "Sense": ("beast", "A"),
        "Athletics": ("beast", "B"),
        "Balance": ("beast", "B"),
        "Rend": ("beast", "B"),
        "Threaten": ("beast", "C"),
        "Seduce": ("beast", "D"),
        "Animal Power": ("beast", None),
    }
)
"""Expertise name -> (governing Identity, Area letter or ``None`` for a Power)."""

ALIASES: Final = MappingProxyType({"Infernal Power": "Diabolic Power"})
"""Other names the text uses for an Expertise (RULINGS: Infernal Power = Diabolic Power)."""

POWERS: Final = MappingProxyType(
    {
        "demon": ("Inhuman (waist down)", "Inhuman (arms)", "Tail", "Wings", "Inhuman Face"),
        "man": (
            "Body compartment",
            "Implanted weapon",
            "Information storage",
            "Replacement limb",
            "Enhanced-spectrum sense",
        ),
        "beast": ("Wings", "Animal legs", "Animal arms", "Tail", "Head"),
    }
)
"""The powers each Identity's Power points may buy (Mongrel, Powers)."""

MAX_REPLACEMENT_LIMBS: Final = 4
"""Replacement limb costs 1 per limb; a body has four limbs."""

BODY_FORMS: Final = MappingProxyType(
    {
        "man": ("human",),
        "beast": ("quadruped", "primate", "bird"),
        "demon": ("human", "quadruped", "primate", "bird"),
    }
)
"""Body forms allowed by the primary Identity (a Primary-Demon takes the form of
its higher other Identity: human for Man, an animal template for Beast)."""

HOUSES: Final[tuple[str, ...]] = (
    "Aggak-Ko",
    "Mekag",
    "Druinar",
    "Esseth",
    "Sfere",
    "Repta",
    "Nuin",
)

HOUSE_TRAITS: Final = MappingProxyType(
    {
        "Aggak-Ko": "the sophisticates; control most of Aoka",
        "Mekag": "the occultists; control most of Beruun",
        "Druinar": "the warriors; based on Aoka, strong on the other two planets",
        "Esseth": "the barbarians; widespread on Cath",
        "Sfere": "the weirdos; strong on Cath, decentralised elsewhere",
        "Repta": "the artists and mystics; strong on Aoka, also on Beruun",
        "Nuin": "the criminals; decentralised, main outpost on the moons of Beruun",
    }
)

OPINIONS: Final = MappingProxyType(
    {
        "Aggak-Ko": MappingProxyType(
            {
                "Mekag": "too serious",
                "Druinar": "useful servants",
                "Esseth": "beneath notice",
                "Sfere": "worrying",
                "Repta": "amusing",
                "Nuin": "dangerous but necessary in small doses",
            }
        ),
        "Mekag": MappingProxyType(
            {
                "Aggak-Ko": "main opponents in the war of secrets",
                "Druinar": "tools in the false war",
                "Esseth": "forceful and ignorant",
                "Sfere": "must know something",
                "Repta": "real foes in the real war",
                "Nuin": "tools",
            }
        ),
        "Druinar": MappingProxyType(
            {
                "Aggak-Ko": "soft, but rich and high-status",
                "Mekag": "the eye that directs the arm",
                "Esseth": "cannon fodder, nasty on their own ground",
                "Sfere": "to be tolerated",
                "Repta": "soft, not worth a glance",
                "Nuin": "to be shut down and punished",
            }
        ),
        "Esseth": MappingProxyType(
            {
                "Aggak-Ko": "high and terrifying",
                "Mekag": "witches, to be burned",
                "Druinar": "the enemy",
                "Sfere": "holy; go lightly",
                "Repta": "unknown",
                "Nuin": "friends",
            }
        ),
        "Sfere": MappingProxyType(
            {
                "Aggak-Ko": "mistake manners for power",
                "Mekag": "mistake fear and fire for power",
                "Druinar": "mistake discipline and weapons for power",
                "Esseth": "mistake numbers and hunger for power",
                "Repta": "know meaning is power but too playful to use it",
                "Nuin": "mistake secrecy for power",
            }
        ),
        "Repta": MappingProxyType(
            {
                "Aggak-Ko": "patrons, not very bright",
                "Mekag": "inspiration",
                "Druinar": "ignorant",
                "Esseth": "thrilling, at a distance",
                "Sfere": "best friends",
                "Nuin": "a walk on the wild side",
            }
        ),
        "Nuin": MappingProxyType(
            {
                "Aggak-Ko": "disapproving, but best customers",
                "Mekag": "bad for business",
                "Druinar": "keep at arm's length; fortunately stupid",
                "Esseth": "other best customers",
                "Sfere": "onto us",
                "Repta": "route to business, not a goal",
            }
        ),
    }
)
"""Each House's opinion of every other House, paraphrased (Mongrel, The Seven Houses)."""

TARGET_ATTRIBUTE: Final = MappingProxyType(
    {
        "Rend": "physique",
        "Melee": "physique",
        "Missile": "physique",
        "Burn": "physique",
        "Athletics": "physique",
        "Balance": "physique",
        "Chill": "spirit",
        "Lie": "social",
        "Convince": "social",
        "Negotiate": "social",
        "Seduce": "social",
        "Threaten": "social",
        "Bureaucrat": "social",
        "Stalk": "speed",
        "Sense": "speed",
        # our rulings (RULINGS names none): the sorcery of Awareness and Education
        "Know": "spirit",
        "Resist": "spirit",
        "Occult": "spirit",
    }
)
"""Default attribute an Expertise rolls against (RULINGS; the referee may pick another).

Know, Resist and Occult default to Spirit by our ruling. Information, Repair
and the Powers have no default: the attribute must be named.
"""


def default_attribute(expertise: str, given: str | None = None) -> str:
    """The attribute a roll uses: the one named, else the Expertise's default."""
    if given is not None:
        return given
    if expertise not in TARGET_ATTRIBUTE:
        from referee.errors import IllegalAction

        raise IllegalAction(
            f"{expertise} has no default attribute: name the attribute (or a TN) to roll against"
        )
    return TARGET_ATTRIBUTE[expertise]


PHYSICAL_ATTACKS: Final[frozenset[str]] = frozenset({"Rend", "Melee", "Missile", "Burn"})
"""Attacks whose Effect is physical damage on the Size/Physique track."""

SPIRIT_ATTACKS: Final[frozenset[str]] = frozenset({"Chill", "Occult"})
"""Attacks whose Effect hits Infernal Resolve directly (Mongrel, Sorcery Expertise)."""

SEXES: Final[tuple[str, ...]] = ("male", "female")
AGES: Final[tuple[str, ...]] = ("young", "adult", "old")

MAX_DICE: Final = 40
"""Bound on a pool's size for untrusted input."""
MIN_TN: Final = -20
MAX_TN: Final = 30
MAX_DIFFICULTY: Final = 4
"""Modifiers run from 1 to 4 (Mongrel, Modifiers)."""
MAX_SCORE: Final = 99
"""Bound on untrusted scores with no rule maximum (Credit, Resolve spent)."""


def canonical_expertise(name: str) -> str:
    """The catalogue spelling of an Expertise name (case-insensitive, aliases allowed)."""
    key = name.strip()
    key = ALIASES.get(key, key)
    for known in EXPERTISE:
        if known.lower() == key.lower():
            return known
    for alias, known in ALIASES.items():
        if alias.lower() == key.lower():
            return known
    from referee.errors import RulesError

    raise RulesError(f"unknown Expertise {name!r}; known: {', '.join(EXPERTISE)}")
