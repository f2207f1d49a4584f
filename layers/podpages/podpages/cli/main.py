"""The `podpages` command: check metadata and render a site with no AWS at all; run the whole
product locally (`demo`, `serve`); and publish to, unpublish from and inspect the local stack or
a deployed one (`publish`, `unpublish`, `rebuild`, `status`)."""

import gc

# The imports below build modules that live as long as the command, so a collection during them
# finds nothing to free: with the collector off they took 0.26 s, not 0.30 (medians of 6 fresh
# interpreters). It is as it was again once they are done, at the end of this module.
_collecting = gc.isenabled()
gc.disable()

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from podpages.cli.progress import tally
from podpages.cli.render import render_folder
from podpages.cli.site_folder import open_for_render
from podpages.cli.source_folder import read_change, upload_files
from podpages.cli.terminal import echo
from podpages.cli.workers import default_workers
from podpages.errors import ContractError, UsageError
from podpages.local import LOCAL_ENDPOINT
from podpages.settings import Settings

if TYPE_CHECKING:  # the commands that need it import it, so validate and render run without moto or PyYAML
    from podpages.cli.targets import Target

type Command = Callable[[argparse.Namespace], int]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="podpages", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    validate = commands.add_parser("validate", help="check metadata files against the contract")
    validate.add_argument(
        "paths", nargs="+", type=Path, metavar="PATH", help="files, or folders to search for .json, .vtt and .srt"
    )
    validate.set_defaults(run=run_validate)

    render = commands.add_parser("render", help="render the whole site from a folder laid out like the source bucket")
    render.add_argument("source", type=Path, metavar="SOURCE_DIR")
    render.add_argument(
        "--out", type=Path, required=True, metavar="DIR", help="a new or empty folder, or one an earlier render wrote"
    )
    render.add_argument("--site-url", help="the site's base URL (default: $SITE_URL)")
    render.add_argument("--excerpt-chars", type=int, help="transcript excerpt budget (default: $EXCERPT_CHARS or 1500)")
    render.add_argument("--nearby-count", type=int, help="nearby episodes per page (default: $NEARBY_COUNT or 8)")
    render.add_argument("--feed-max-items", type=int, help="feed items, 0 for all (default: $FEED_MAX_ITEMS or 1000)")
    render.add_argument("--force", action="store_true", help="replace the files an earlier render wrote to --out")
    render.add_argument(
        "--workers", type=_positive, default=default_workers(), help="processes to render with (default: one per core)"
    )
    render.set_defaults(run=run_render)

    demo = commands.add_parser("demo", help="run the whole product locally, publish the examples, serve it")
    demo.add_argument(
        "--host", default="127.0.0.1", help="the site and API's address, S3 and SQS keep 127.0.0.1 (default: 127.0.0.1)"
    )
    demo.add_argument("--port", type=int, default=3000, help="the site and API's port (default: 3000)")
    demo.add_argument("--aws-port", type=int, default=4566, help="the local S3 and SQS endpoint's port (default: 4566)")
    demo.add_argument("--examples", type=Path, default=None, help="a folder to publish (default: examples/)")
    demo.add_argument("--no-examples", action="store_true", help="start empty")
    demo.add_argument(
        "--batching-window", type=float, help="seconds the queue gathers a batch (default: the template's, 5)"
    )
    demo.add_argument(
        "--notify-recorder",
        action="store_true",
        help="stand a recorder on 127.0.0.1 in for WebSub hubs, ping endpoints and IndexNow, and print what each"
        " publish would have told them",
    )
    demo.set_defaults(run=run_demo)

    serve = commands.add_parser("serve", help="serve a site bucket and the nearby API as CloudFront would")
    serve.add_argument("--host", default="127.0.0.1", help="the address to serve on (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=3000, help="the port (default: 3000)")
    _target_options(serve)
    serve.set_defaults(run=run_serve)

    publish = commands.add_parser("publish", help="upload metadata files or folders and report what was published")
    publish.add_argument(
        "paths", nargs="+", type=Path, metavar="PATH", help="files, or folders to search for .json, .vtt and .srt"
    )
    publish.add_argument("--wait", type=float, default=60, help="seconds to wait for the outcome, 0 not to")
    _target_options(publish)
    publish.set_defaults(run=run_publish)

    unpublish = commands.add_parser("unpublish", help="remove uploads and wait until the site drops them")
    unpublish.add_argument(
        "keys", nargs="+", metavar="KEY", help="episodes/<show>/<episode>.json (.vtt, .srt) or shows/<show>.json"
    )
    unpublish.add_argument("--wait", type=float, default=60, help="seconds to wait for the outcome, 0 not to")
    _target_options(unpublish)
    unpublish.set_defaults(run=run_unpublish)

    rebuild = commands.add_parser(
        "rebuild", help="render every page of some shows, or of the whole site, again from the catalogs"
    )
    which = rebuild.add_mutually_exclusive_group(required=True)
    which.add_argument("--show", action="append", metavar="SHOW", help="a show to rebuild (repeatable)")
    which.add_argument("--all", action="store_true", help="every show, and the site's own files")
    rebuild.add_argument("--wait", type=float, default=600, help="seconds to wait for the outcome, 0 not to")
    _target_options(rebuild)
    rebuild.set_defaults(run=run_rebuild)

    status = commands.add_parser("status", help="show the render queue, the dead-letter queue and the newest errors")
    _target_options(status)
    status.set_defaults(run=run_status)

    args = parser.parse_args(argv)
    try:
        run: Command = args.run  # the command's, from set_defaults
        return run(args)
    except UsageError as error:  # settings and arguments a user can fix; anything else is a bug, traceback and all
        echo(f"podpages: {error}", sys.stderr)
        return 2


def _talks_to_aws(run: Command) -> Command:
    """A command that talks to S3 and SQS, local or deployed, where an endpoint that does not answer
    is the user's to fix. botocore is imported by such a command alone: `validate` and `render`
    start without it, which took 20 ms of their start."""

    def talking(args: argparse.Namespace) -> int:
        from botocore.exceptions import EndpointConnectionError

        try:
            return run(args)
        except EndpointConnectionError as error:
            endpoint = error.kwargs.get("endpoint_url")
            raise UsageError(f"nothing answers at {endpoint}: is `make demo` running?") from None

    return talking


def _target_options(command: argparse.ArgumentParser) -> None:
    where = command.add_argument_group("where", "The local stack of `make demo` unless a stack or bucket is named.")
    where.add_argument("--endpoint-url", default=None, help=f"the local stack's S3 and SQS (default: {LOCAL_ENDPOINT})")
    where.add_argument("--stack", help="a deployed stack's name; its outputs name the buckets and queues")
    where.add_argument("--source-bucket", help="the deployed source bucket, when no stack is named")
    where.add_argument("--site-bucket", help="the deployed site bucket (serve)")
    where.add_argument("--queue-url", help="the render queue (status)")
    where.add_argument("--dead-letter-queue-url", help="the render dead-letter queue (status, rebuild)")
    where.add_argument("--rebuild-queue-url", help="the rebuild queue (rebuild)")
    where.add_argument("--profile", help="the AWS profile to use")
    where.add_argument("--region", help="the AWS region")


def _target(args: argparse.Namespace) -> "Target":
    from podpages.cli.targets import aws_target, local_target

    if args.stack or args.source_bucket:
        return aws_target(
            args.profile,
            args.region,
            args.stack,
            args.source_bucket,
            args.site_bucket,
            args.queue_url,
            args.dead_letter_queue_url,
            args.rebuild_queue_url,
        )
    return local_target(args.endpoint_url or LOCAL_ENDPOINT)


def run_demo(args: argparse.Namespace) -> int:
    from podpages.cli.demo import EXAMPLES, run_demo

    examples = None if args.no_examples else args.examples or EXAMPLES
    return run_demo(
        args.host,
        args.port,
        args.aws_port,
        examples,
        batching_window=args.batching_window,
        notify_recorder=args.notify_recorder,
        say=_say,
    )


@_talks_to_aws
def run_serve(args: argparse.Namespace) -> int:
    from podpages.cli.serve import serve

    return serve(_target(args), args.host, args.port, profile=args.profile, region=args.region, say=_say)


@_talks_to_aws
def run_publish(args: argparse.Namespace) -> int:
    from podpages.cli.publish import publish

    target = _target(args)
    echo(f"publishing to {target.label}", sys.stderr)
    summary = publish(target, args.paths, args.wait)
    for line in summary.lines():
        echo(line)
    return 0 if summary.succeeded else 1


@_talks_to_aws
def run_unpublish(args: argparse.Namespace) -> int:
    from podpages.cli.publish import unpublish

    summary = unpublish(_target(args), args.keys, args.wait)
    for line in summary.lines():
        echo(line)
    return 0 if summary.succeeded else 1


@_talks_to_aws
def run_rebuild(args: argparse.Namespace) -> int:
    from podpages.cli.rebuild import rebuild

    target = _target(args)
    echo(f"rebuilding on {target.label}", sys.stderr)
    summary = rebuild(target, None if args.all else args.show, args.wait)
    for line in summary.lines():
        echo(line)
    return 0 if summary.succeeded or summary.left is None else 1


@_talks_to_aws
def run_status(args: argparse.Namespace) -> int:
    from podpages.cli.status import status

    for line in status(_target(args)).lines():
        echo(line)
    return 0


def _say(line: str) -> None:
    echo(line)


def run_validate(args: argparse.Namespace) -> int:
    files = list(upload_files(args.paths))
    failed = 0
    # On a terminal, a bar counts the files, and each problem is printed above it.
    with tally(len(files), "checking", "file", None, echo) as checked:
        for path in files:
            try:
                read_change(path)
            except ContractError as error:
                failed += 1
                for problem in error.problems:
                    checked.say(f"{path}: {problem.field}: {problem.message}")
            checked.add(1)
    echo(f"{len(files)} checked, {len(files) - failed} valid, {failed} invalid", sys.stderr)
    return 1 if failed or not files else 0


def _positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {number}")
    return number


def run_render(args: argparse.Namespace) -> int:
    settings = _render_settings(args)
    if not args.source.is_dir():
        raise UsageError(f"{args.source} is not a folder")
    site = open_for_render(args.out, args.source, args.force)
    started = time.perf_counter()
    try:
        folder, written = render_folder(args.source, settings, site, args.workers, lambda line: echo(line, sys.stderr))
    except ContractError as error:  # a file read again as its site is written: a transcript not held
        changed = "the source folder changed while it was rendered: render it again with --force"
        raise UsageError(f"{error}; {changed}") from None
    for path, problem in folder.problems:
        echo(f"{path}: {problem.field}: {problem.message}", sys.stderr)
    elapsed = time.perf_counter() - started
    rejected = len({path for path, _ in folder.problems})
    echo(f"rendered {written} files to {args.out} in {elapsed:.2f} s; {rejected} input files rejected", sys.stderr)
    return 1 if rejected else 0


def _render_settings(args: argparse.Namespace) -> Settings:
    """The settings the options and the environment give. Settings raises ValueError for a bad
    SITE_URL or number: here, and only here, that is the user's to fix."""
    try:
        return Settings.from_env(
            site_url=args.site_url,
            excerpt_chars=args.excerpt_chars,
            nearby_count=args.nearby_count,
            feed_max_items=args.feed_max_items,
        )
    except ValueError as error:
        raise UsageError(str(error)) from None


def command() -> NoReturn:
    """`podpages` as a program: `main`, then an exit that leaves what it made to the system. The
    interpreter's last collection at exit walks every object still held; after a render of 100,000
    episodes that took 2.2 s, and frozen they are passed over."""
    code = main()
    gc.freeze()
    sys.exit(code)


if _collecting:
    gc.enable()

if __name__ == "__main__":
    command()
