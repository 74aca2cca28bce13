"""The README's commands and every ``--help`` example run on the seed build as written.

They run in a scratch folder holding a copy of ``data/`` and of the seed build as ``out/``, so
relative paths in the examples mean what they mean in a fresh clone after ``make run``.
``kg build`` examples are not re-run (the session's seed build is that command) and ``kg serve``
would not return; both are checked to parse.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
NOT_RUN = ("build", "serve")


def _logical_lines(block: str):
    """Shell lines of a code block, a quoted argument spanning lines joined, comments dropped."""
    pending = ""
    for line in block.splitlines():
        pending = f"{pending}\n{line}" if pending else line
        try:
            words = shlex.split(pending, comments=True)
        except ValueError:  # an open quote: the command goes on
            continue
        pending = ""
        if words and words[0] == "$":
            words = words[1:]
        if words and words[0] == "kg":
            yield words[1:]


def readme_commands() -> list[list[str]]:
    """``kg`` lines of the README's ``sh`` blocks, and the ``$ kg`` lines of its transcripts."""
    blocks, current, fence = [], None, ""
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            if current is None:
                current, fence = [], line[3:].strip()
            else:
                blocks.append((fence, "\n".join(current)))
                current = None
        elif current is not None:
            current.append(line)
    commands = []
    for fence, block in blocks:
        if fence == "sh":
            commands += list(_logical_lines(block))
        elif fence == "":
            commands += [c for line in block.splitlines() if line.startswith("$ kg ") for c in _logical_lines(line)]
    return [c for c in commands if c]


def help_commands() -> list[list[str]]:
    commands = []
    for name in ["", *sorted(main.commands)]:  # "": the help of `kg` itself
        text = CliRunner().invoke(main, [name, "--help"] if name else ["--help"]).output
        examples = text.split("Examples:", 1)[1] if "Examples:" in text else text.split("Example:", 1)[-1]
        for line in examples.splitlines():
            line = line.strip()
            if line.startswith("kg "):
                command = re.split(r"\s{2,}", line)[0]  # the description follows two spaces
                commands.append(shlex.split(command)[1:])
    return commands


README = readme_commands()
HELP = help_commands()


@pytest.fixture(scope="module")
def clone(seeds_out, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("clone")
    shutil.copytree(ROOT / "data", folder / "data")
    shutil.copytree(seeds_out, folder / "out")
    return folder


@pytest.fixture(scope="module")
def help_clone(tmp_path_factory) -> Path:
    """The build the ``--help`` examples are written for: two small invented CVs (kg/ names no
    person of the seeds), in tests/data/help-examples/."""
    from kg.build import build_graph

    folder = tmp_path_factory.mktemp("help-clone")
    shutil.copytree(ROOT / "tests" / "data" / "help-examples", folder / "data")
    build_graph(folder / "data", folder / "out", validate=False)  # the SHACL check writes nothing the examples read
    return folder


def test_there_are_examples_to_check():
    assert len(README) >= 12 and len(HELP) >= 25
    assert all(c[0] in main.commands for c in README + HELP), [c for c in README + HELP if c[0] not in main.commands]


def run_example(args, folder, monkeypatch):
    if ">" in args:  # a shell redirection: the command is what comes before it
        args = args[: args.index(">")]
    if args[0] in NOT_RUN:
        command = main.commands[args[0]]
        with command.make_context(args[0], list(args[1:])) as ctx:  # parses: options and arguments exist
            assert ctx.params is not None
        return
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, (args, result.output)
    assert "no rows" not in result.output and "(0 rows)" not in result.output, (args, result.output)


@pytest.mark.parametrize("args", README, ids=lambda a: " ".join(a)[:60])
def test_readme_example_runs_on_the_seed_build(args, clone, monkeypatch):
    run_example(args, clone, monkeypatch)


@pytest.mark.parametrize("args", HELP, ids=lambda a: " ".join(a)[:60])
def test_help_example_runs_on_the_examples_build(args, help_clone, monkeypatch):
    run_example(args, help_clone, monkeypatch)
