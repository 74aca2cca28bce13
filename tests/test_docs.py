"""The README stays true: the commands it shows exist, and every command is in it."""

from __future__ import annotations

import re

from click.testing import CliRunner
from conftest import ROOT

from kg.cli.main import main

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_shows_the_two_commands_first():
    first_block = README.split("```")[1]
    assert "make run" in first_block and "make test" in first_block


def test_every_command_is_documented_and_every_documented_command_exists():
    documented = set(re.findall(r"`kg ([a-z]+)", README))
    commands = set(main.commands)
    assert commands - documented == set(), "commands missing from README.md"
    assert documented - commands == set(), "README.md names commands that do not exist"


def test_every_command_has_help_with_an_example():
    runner = CliRunner()
    for name in main.commands:
        result = runner.invoke(main, [name, "--help"])
        assert result.exit_code == 0, name
        assert "Example" in result.output, f"kg {name} --help shows no example"


def test_files_the_readme_links_exist():
    for target in re.findall(r"\]\(([^)#]+)\)", README):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target
