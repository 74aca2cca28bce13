"""Crowded, labelled person-mention corpora for the identity benchmark: the truth is known.

Research groups at different institutions publish over the years; each group's publication list
is one BibTeX file (``group-0007.bib``), the form kg reads today. Members are drawn from a
realistic pool of names, so that names collide as in every real bibliography:

* common Chinese names (Wei Wang, Meng Zhang, Yang Liu, Zheng Wang, ...), each held by several
  distinct people in different groups (and, rarely, two in one group);
* rarer two-syllable given names, printed hyphenated or not ("Tian-Hua" / "Tianhua");
* Western names with diacritics (printed as UTF-8, as LaTeX escapes or stripped), middle initials
  (kept or dropped) and nicknames in parentheses ("Robert (Bob) Miller");
* people who move to another group, sometimes writing one more paper with the old group;
* external collaborators: a work with an author from another group is listed by both groups;
* each group prints names in its own style: "Zheng Wang", "Wang, Zheng", family first ("Wang
  Zheng"), or initials only ("Wang, Z.", "Z. Wang", "T.-H. Liao").

Alongside the ``.bib`` files, ``truth.tsv`` maps every mention -- (document, BibTeX key, author
position from 0) -- to a true person id, with the printed form; ``people.tsv`` lists the people.

Run: ``.venv/bin/python -m bench.identity_corpus OUT_DIR --mentions 10000 [--seed 1]``
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

# Common Chinese full names (given, family): in a large field each is held by many people.
COMMON = [("Wei", "Wang"), ("Meng", "Zhang"), ("Yang", "Liu"), ("Zheng", "Wang"), ("Jing", "Li"),
          ("Lei", "Zhang"), ("Jie", "Chen"), ("Hao", "Li"), ("Xin", "Wang"), ("Yu", "Zhang"),
          ("Jun", "Liu"), ("Min", "Chen"), ("Tao", "Wang"), ("Yan", "Li"), ("Lei", "Wang"),
          ("Jian", "Zhang"), ("Ying", "Liu"), ("Hui", "Wang"), ("Bo", "Li"), ("Chao", "Zhang"),
          ("Zeke", "Wang"), ("Wei", "Li"), ("Yi", "Chen"), ("Jing", "Yang"), ("Xin", "Liu")]
CN_FAMILY = ("Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Lin Gao Luo Zheng "
             "Liang Xie Song Tang Han Feng Deng Cao Peng Zeng Xiao Tian Dong Pan Yuan Cai Jiang Yu Liao").split()
SYLLABLES = ("tian hua wei min jun jie hao xin lei peng fei tao bin chao qiang ming jian ping hong ying "
             "jing yan ting fang xiao yun lin qing zhi chen yang kai long feng rui han shu yong guang "
             "hui kun liang xiang zhen meng yue xuan wen hai dong cheng sheng kang ning jia hang rong").split()
# Western names: (plain, with diacritics, LaTeX escaped); the plain form is what ASCII-only lists print.
WEST_GIVEN = [("Jose", "José", "Jos{\\'e}"), ("Zoe", "Zoë", "Zo{\\\"e}"), ("Francois", "François", "Fran{\\c{c}}ois"),
              ("Jurgen", "Jürgen", "J{\\\"u}rgen"), ("Soren", "Søren", "S{\\o}ren"), ("Agnes", "Agnès", "Agn{\\`e}s"),
              ("John", "John", "John"), ("Mary", "Mary", "Mary"), ("David", "David", "David"),
              ("Anna", "Anna", "Anna"), ("Peter", "Peter", "Peter"), ("Laura", "Laura", "Laura"),
              ("Michael", "Michael", "Michael"), ("Sarah", "Sarah", "Sarah"), ("Lukas", "Lukas", "Lukas")]
WEST_FAMILY = [("Garcia", "García", "Garc{\\'\\i}a"), ("Muller", "Müller", "M{\\\"u}ller"),
               ("Lefevre", "Lefèvre", "Lef{\\`e}vre"), ("Nunez", "Núñez", "N{\\'u}{\\~n}ez"),
               ("Smith", "Smith", "Smith"), ("Miller", "Miller", "Miller"), ("Brown", "Brown", "Brown"),
               ("Jones", "Jones", "Jones"), ("Kim", "Kim", "Kim"), ("Rossi", "Rossi", "Rossi"),
               ("Schmidt", "Schmidt", "Schmidt"), ("Novak", "Novák", "Nov{\\'a}k"), ("Dubois", "Dubois", "Dubois")]
NICKNAMES = {"Michael": "Mike", "Peter": "Pete", "David": "Dave", "John": "Jack", "Laura": "Laurie"}
STYLES = ["given-family", "family-comma", "family-first", "initials", "initials-comma", "mixed"]
INSTITUTIONS = ["Tsinghua University", "Peking University", "Zhejiang University", "ETH Zurich", "MIT",
                "University of Leeds", "National University of Singapore", "University of Toronto",
                "Nanyang Technological University", "Shanghai Jiao Tong University", "TU Munich", "KAIST"]
VENUES = ["NeurIPS", "ICML", "SOSP", "OSDI", "SIGMOD", "VLDB", "CVPR", "ACL", "KDD", "WWW", "PLDI", "ASPLOS"]
WORDS = ("adaptive scalable robust efficient learning graph neural scheduling storage cache memory "
         "distributed federated sparse attention retrieval index query stream compiler kernel network "
         "privacy secure fair quantum energy mobile edge cloud serverless vector embedding language vision "
         "reinforcement causal temporal spatial hybrid elastic").split()
YEARS = range(2012, 2025)


@dataclass
class Person:
    pid: str
    given: tuple[str, str, str]  # plain, with diacritics, LaTeX
    family: tuple[str, str, str]
    chinese: bool
    syllables: tuple[str, ...] = ()  # of a Chinese given name, for hyphenation variants
    middle: str | None = None
    nickname: str | None = None
    stints: list[tuple[int, int, int]] = field(default_factory=list)  # (group, first year, last year)


@dataclass
class Group:
    index: int
    institution: str
    style: str
    members: list[Person] = field(default_factory=list)


@dataclass
class Mention:
    document: str
    key: str
    position: int
    person: str
    printed: str


def _cn(pid: str, given: str, family: str, syllables: tuple[str, ...] = ()) -> Person:
    return Person(pid, (given,) * 3, (family,) * 3, True, syllables)


def _new_person(rng: random.Random, pid: str, taken: set[str]) -> Person:
    """A person drawn from the pool: a common Chinese name (shared), a rarer Chinese name, or a Western one."""
    roll = rng.random()
    if roll < 0.35:
        given, family = rng.choice(COMMON)
        while f"{given} {family}" in taken and rng.random() < 0.9:  # two namesakes in one group: rare
            given, family = rng.choice(COMMON)
        return _cn(pid, given, family)
    if roll < 0.75:
        for _ in range(20):
            syl = tuple(rng.sample(SYLLABLES, 2))
            given = "".join(syl).capitalize()
            family = rng.choice(CN_FAMILY)
            if f"{given} {family}" not in taken:
                break
        return _cn(pid, given, family, syl)
    given, family = rng.choice(WEST_GIVEN), rng.choice(WEST_FAMILY)
    middle = rng.choice("ABCDEJKMRS") if rng.random() < 0.4 else None
    nickname = NICKNAMES.get(given[0]) if rng.random() < 0.5 else None
    return Person(pid, given, family, False, middle=middle, nickname=nickname)


def printed_name(rng: random.Random, p: Person, style: str) -> str:
    """One printed form of *p* in a BibTeX author field, in a group's *style*, with the usual variation."""
    if style == "mixed":
        style = rng.choice(STYLES[:-1])
    form = rng.choice((0, 1, 2))  # plain, diacritics, LaTeX
    given, family = p.given[form], p.family[form]
    if p.syllables:
        a, b = (s.capitalize() for s in p.syllables)
        given = rng.choice((given, given, f"{a}-{b}", f"{a}-{b.lower()}"))
    if style.startswith("initials"):
        if p.syllables and "-" in given:
            initials = f"{given[0]}.-{p.syllables[1][0].upper()}."
        else:
            initials = f"{given[0]}."
        if p.middle and rng.random() < 0.7:
            initials += f" {p.middle}."
        return f"{family}, {initials}" if style == "initials-comma" else f"{initials} {family}"
    if p.middle and rng.random() < 0.6:
        given = f"{given} {p.middle}."
    if p.nickname and rng.random() < 0.3:
        given = f"{given} ({p.nickname})"
    if style == "family-first" and p.chinese:
        return f"{family} {given}"
    if style == "family-comma":
        return f"{family}, {given}"
    return f"{given} {family}"


def _title(rng: random.Random, used: set[str]) -> str:
    while True:
        words = rng.sample(WORDS, rng.randint(4, 7))
        title = " ".join(words).capitalize()
        if title not in used:
            used.add(title)
            return title


def generate(mentions: int, seed: int = 1) -> tuple[dict[str, str], list[Mention], list[Person]]:  # noqa: C901
    """BibTeX text per document name, every mention with its true person, and the people.

    Groups are added until the corpus holds at least *mentions* author mentions.

    >>> docs, truth, people = generate(300, seed=3)
    >>> len(truth) >= 300 and all(name.endswith(".bib") for name in docs)
    True
    >>> len({m.person for m in truth}) <= len(people)
    True
    """
    rng = random.Random(seed)
    people: list[Person] = []
    groups: list[Group] = []
    works: list[tuple[int, int, list[Person]]] = []  # (id, year, authors)
    lists: dict[int, list[int]] = {}  # group -> works it lists
    total = 0

    def active(group: Group, year: int) -> list[Person]:
        return [p for p in group.members if any(g == group.index and a <= year <= b for g, a, b in p.stints)]

    while total < mentions:
        g = Group(len(groups), rng.choice(INSTITUTIONS), rng.choice(STYLES))
        groups.append(g)
        taken: set[str] = set()
        for _ in range(rng.randint(6, 14)):
            p = _new_person(rng, f"p{len(people)}", taken)
            taken.add(f"{p.given[0]} {p.family[0]}")
            start = rng.choice(YEARS[:-2])
            p.stints.append((g.index, start, min(YEARS[-1], start + rng.randint(3, 12))))
            people.append(p)
            g.members.append(p)
        # Some members of earlier groups move here after their stint there.
        for p in rng.sample(people[: max(0, len(people) - len(g.members))], k=min(2, len(groups) - 1)):
            last = p.stints[-1][2]
            if last < YEARS[-1]:
                p.stints.append((g.index, last + 1, YEARS[-1]))
                g.members.append(p)
        lists[g.index] = []
        for year in YEARS:
            here = active(g, year)
            if len(here) < 2:
                continue
            for _ in range(rng.randint(2, 5)):
                authors = rng.sample(here, min(len(here), rng.randint(2, 6)))
                listing = {g.index}
                if rng.random() < 0.15 and len(groups) > 1:
                    other = groups[rng.randrange(len(groups) - 1)]
                    guests = active(other, year) or other.members
                    guest = rng.choice(guests)
                    if guest not in authors:
                        authors.insert(rng.randrange(len(authors) + 1), guest)
                        listing.add(other.index)
                for p in authors:  # a mover's old group lists the paper too, now and then
                    if len(p.stints) > 1 and rng.random() < 0.3:
                        listing.add(p.stints[0][0])
                wid = len(works)
                works.append((wid, year, authors))
                for gi in listing:
                    lists.setdefault(gi, []).append(wid)
                    total += len(authors)

    used_titles: set[str] = set()
    titles = [_title(rng, used_titles) for _ in works]
    docs: dict[str, str] = {}
    truth: list[Mention] = []
    for g in groups:
        name = f"group-{g.index:04d}.bib"
        entries = []
        for wid in sorted(set(lists.get(g.index, []))):
            _, year, authors = works[wid]
            key = f"w{wid}"
            printed = [printed_name(rng, p, g.style) for p in authors]
            truth += [Mention(name, key, i, p.pid, s) for i, (p, s) in enumerate(zip(authors, printed, strict=True))]
            entries.append(f"@inproceedings{{{key},\n  title = {{{titles[wid]}}},\n"
                           f"  author = {{{' and '.join(printed)}}},\n"
                           f"  booktitle = {{Proceedings of {rng.choice(VENUES)}}},\n  year = {{{year}}},\n}}\n")
        if entries:
            docs[name] = f"% publications of a research group at {g.institution}\n\n" + "\n".join(entries)
    return docs, truth, people


def write(out: Path, docs: dict[str, str], truth: list[Mention], people: list[Person]) -> None:
    """The ``.bib`` files, ``truth.tsv`` (document, key, position, person, printed) and ``people.tsv``."""
    out.mkdir(parents=True, exist_ok=True)
    for name, text in docs.items():
        (out / name).write_text(text, encoding="utf-8")
    with open(out / "truth.tsv", "w", encoding="utf-8") as handle:
        handle.write("document\tkey\tposition\tperson\tprinted\n")
        for m in truth:
            handle.write(f"{m.document}\t{m.key}\t{m.position}\t{m.person}\t{m.printed}\n")
    with open(out / "people.tsv", "w", encoding="utf-8") as handle:
        handle.write("person\tname\tgroups\n")
        for p in people:
            handle.write(f"{p.pid}\t{p.given[1]} {p.family[1]}\t{','.join(str(s[0]) for s in p.stints)}\n")


def read_truth(folder: Path) -> dict[tuple[str, str, int], str]:
    """``(document, key, position) -> person`` from a folder :func:`write` filled."""
    truth = {}
    with open(folder / "truth.tsv", encoding="utf-8") as handle:
        next(handle)
        for line in handle:
            document, key, position, person, _ = line.rstrip("\n").split("\t")
            truth[(document, key, int(position))] = person
    return truth


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--mentions", type=int, default=10_000, help="at least this many author mentions")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    docs, truth, people = generate(args.mentions, args.seed)
    write(args.out_dir, docs, truth, people)
    print(f"wrote {len(docs)} BibTeX files, {len(truth)} mentions of {len({m.person for m in truth})} people "
          f"into {args.out_dir}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
