"""The `podpages` command: check metadata files and render a site locally, with no AWS."""

import argparse
import shutil
import sys
import time
from pathlib import Path

from podpages.errors import ContractError
from podpages.settings import Settings
from podpages.site_folder import SiteFolder
from podpages.site_render import render_site
from podpages.source_folder import metadata_files, read_change, read_source_folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="podpages", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    validate = commands.add_parser("validate", help="check metadata files against the contract")
    validate.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="files, or folders to search for .json")
    validate.set_defaults(run=run_validate)

    render = commands.add_parser("render", help="render the whole site from a folder laid out like the source bucket")
    render.add_argument("source", type=Path, metavar="SOURCE_DIR")
    render.add_argument("--out", type=Path, required=True, metavar="DIR", help="an empty or new folder")
    render.add_argument("--site-url", help="the site's base URL (default: $SITE_URL)")
    render.add_argument("--excerpt-chars", type=int, help="transcript excerpt budget (default: $EXCERPT_CHARS or 1500)")
    render.add_argument("--nearby-count", type=int, help="nearby episodes per page (default: $NEARBY_COUNT or 8)")
    render.add_argument("--feed-max-items", type=int, help="feed items, 0 for all (default: $FEED_MAX_ITEMS or 0)")
    render.add_argument("--force", action="store_true", help="replace the contents of a non-empty --out")
    render.set_defaults(run=run_render)

    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except ValueError as error:  # settings and arguments a user can fix
        print(f"podpages: {error}", file=sys.stderr)
        return 2


def run_validate(args: argparse.Namespace) -> int:
    checked = failed = 0
    for path in metadata_files(args.paths):
        checked += 1
        try:
            read_change(path)
        except ContractError as error:
            failed += 1
            for problem in error.problems:
                print(f"{path}: {problem.field}: {problem.message}")
    print(f"{checked} checked, {checked - failed} valid, {failed} invalid", file=sys.stderr)
    return 1 if failed or not checked else 0


def run_render(args: argparse.Namespace) -> int:
    settings = Settings.from_env(
        site_url=args.site_url,
        excerpt_chars=args.excerpt_chars,
        nearby_count=args.nearby_count,
        feed_max_items=args.feed_max_items,
    )
    if not args.source.is_dir():
        raise ValueError(f"{args.source} is not a folder")
    _prepare_output(args.out, args.force)
    started = time.perf_counter()
    folder = read_source_folder(args.source, settings)
    for path, problem in folder.problems:
        print(f"{path}: {problem.field}: {problem.message}", file=sys.stderr)
    site = SiteFolder(args.out)
    written = 0
    for number, (show, plan) in enumerate(render_site(folder.catalogs, folder.transcripts, settings), start=1):
        site.apply(plan.puts, plan.deletes)
        written += len(plan.puts)
        label = show or "site files"
        print(f"[{number}/{len(folder.catalogs) + 1}] {label}: {len(plan.puts)} files", file=sys.stderr)
    elapsed = time.perf_counter() - started
    rejected = len({path for path, _ in folder.problems})
    print(
        f"rendered {written} files to {args.out} in {elapsed:.2f} s; {rejected} input files rejected", file=sys.stderr
    )
    return 1 if rejected else 0


def _prepare_output(out: Path, force: bool) -> None:
    if out.exists() and any(out.iterdir()):
        if not force:
            raise ValueError(f"{out} is not empty; pass --force to replace its contents")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)


if __name__ == "__main__":
    sys.exit(main())
