"""The package's folders are its architecture: dependencies run one way, from the contract up to the
publish path and the CLI, and what the Lambda layer ships never reaches the development tooling."""

import ast
from pathlib import Path

from support.paths import ROOT

PACKAGE = ROOT / "layers" / "podpages" / "podpages"
SHARED = "shared leaves"  # the modules at the package's top: settings, errors, durations, ...

# Each sub-package, and the sub-packages it may import. Read from the bottom: the contract knows
# nothing else; the nearby API reads catalogs through storage and never loads render or publish.
MAY_IMPORT = {
    SHARED: set(),
    "contract": {SHARED},
    "catalog": {SHARED, "contract"},
    "render": {SHARED, "contract", "catalog"},
    "storage": {SHARED, "contract", "catalog", "render"},
    "rebuild": {SHARED, "contract", "catalog", "storage"},
    # Telling the world reads nothing of the domain: URLs in, HTTP calls out.
    "notify": {SHARED},
    "nearby": {SHARED, "contract", "catalog", "storage"},
    "publish": {SHARED, "contract", "catalog", "render", "storage", "rebuild", "notify"},
    # The local stack stands in for AWS beside the domain, and may read its rules; never the CLI's.
    "local": {SHARED, "contract", "catalog", "render", "storage", "rebuild", "nearby", "publish", "notify"},
    "cli": {SHARED, "contract", "catalog", "render", "storage", "rebuild", "publish", "nearby", "local", "notify"},
}


def _part(module: str) -> str:
    """The sub-package a dotted module name belongs to, or SHARED for the top-level modules."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and (PACKAGE / parts[1]).is_dir() else SHARED


def _imports(path: Path) -> set[str]:
    """Every podpages module `path` imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "podpages":
            if node.module == "podpages":
                found |= {f"podpages.{alias.name}" for alias in node.names}
            else:
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.split(".")[0] == "podpages"}
    return found


def _owner(path: Path) -> str:
    relative = path.relative_to(PACKAGE).parts
    return relative[0] if len(relative) > 1 else SHARED


def test_every_sub_package_has_a_place_in_the_flow():
    packages = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert packages == set(MAY_IMPORT) - {SHARED}


def test_no_module_imports_a_package_above_its_own():
    # Given every module of the package and what it imports
    climbing = [
        f"{path.relative_to(PACKAGE)} imports {module}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for module in sorted(_imports(path))
        if (target := _part(module)) != _owner(path) and target not in MAY_IMPORT[_owner(path)]
    ]
    # Then none reaches a package it may not
    assert climbing == []


def test_the_top_of_the_package_holds_at_most_a_dozen_modules():
    assert len(list(PACKAGE.glob("*.py"))) <= 12
