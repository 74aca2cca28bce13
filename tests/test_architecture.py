"""The house rules of docs/architecture.md: no import cycles among kg's modules, modules of
about 400 lines at most, and ruff's checks (complexity at most 15) clean."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "kg"
MAX_LINES = 430  # "about 400", for every module of kg/, the readers in kg/sources/ included


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Module -> the kg modules it imports (at the top or inside a function; not under TYPE_CHECKING)."""
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for block in ast.walk(tree):  # imports only a type checker sees do not run: drop them
            if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test):
                block.body = []
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # "from kg.x import y" imports kg.x.y where that is a module, else kg.x
                found |= {f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module
                          for a in node.names}
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of *graph* as a list of modules, or None (depth-first search, three colours)."""
    colour: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if colour.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in colour and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        colour[node] = 2
        return None

    for node in sorted(graph):
        if node not in colour and (cycle := visit(node)):
            return cycle
    return None


def test_the_cycle_finder_finds_a_cycle_and_only_a_cycle():
    # a -> b -> c -> a is a cycle; d -> a is not part of it.
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set(), "d": {"a", "c"}}) is None


def test_the_import_graph_sees_imports():
    graph = import_graph()
    assert "kg.identity.keys" in graph["kg.identity.curation"]  # a top-level import
    assert "kg.records" in graph["kg.build"]


def test_no_import_cycles_among_kg_modules():
    cycle = find_cycle(import_graph())
    assert cycle is None, " -> ".join(cycle)


def test_no_module_is_much_over_400_lines():
    long = {module_name(p): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


@pytest.mark.skipif(shutil.which("ruff", path=str(Path(sys.executable).parent)) is None,
                    reason="ruff is not installed (pip install -e '.[test]')")
def test_ruff_is_clean():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent))
    run = subprocess.run([ruff, "check", "--no-cache", str(PACKAGE), str(PACKAGE.parent / "tests"),
                          str(PACKAGE.parent / "bench")], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout


def test_kg_has_no_per_file_exemptions_from_ruff():
    # pyproject.toml may exempt tests/ and bench/ from a rule, never a module of kg/: kg/ meets every rule.
    import tomllib

    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    ignores = config["tool"]["ruff"]["lint"].get("per-file-ignores", {})
    assert [pattern for pattern in ignores if pattern.startswith(("kg/", "kg\\", "kg*"))] == []
    assert config["tool"]["ruff"]["lint"]["mccabe"]["max-complexity"] == 15
