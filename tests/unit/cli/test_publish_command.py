"""`podpages publish` while it watches for the render function's outcome: what it keeps of each file
it sent, to tell when that file is published."""

import shutil
from pathlib import Path

from podpages.catalog.model import Catalog
from podpages.cli import publish as publish_command
from podpages.cli.publish import publish
from podpages.cli.source_folder import read_change
from podpages.cli.targets import Target
from podpages.contract.companion_transcripts import Cue
from podpages.storage.source_bucket import SourceBucket
from support.alive import alive
from support.catalogs import SETTINGS, commit_catalog
from support.paths import EXAMPLES

RADIO = EXAMPLES / "episodes" / "release-radio"


def published_from(s3, folder: Path, pattern: str) -> None:
    """The show of `folder` published as the render function would publish the files `pattern` finds there."""
    catalog = Catalog(show=folder.name)
    for path in sorted(folder.glob(pattern)):
        catalog = catalog.apply(read_change(path), SETTINGS.excerpt_chars)
    commit_catalog(SourceBucket(s3, "source-bucket"), catalog)


def test_publish_holds_no_companions_cues_while_it_waits_and_digests_each_once(s3, tmp_path, monkeypatch):
    # Given a show published with its episodes and without their two companions, and the folder of
    # them all, sent where no render function takes them up
    folder = tmp_path / "episodes" / "release-radio"
    shutil.copytree(RADIO, folder)
    published_from(s3, folder, "*.json")
    polls = 3

    def three_polls(total, finished, *_timing_and_bar):
        """The command's watch, polled `polls` times whatever the machine's pace."""
        return [finished() for _poll in range(polls)][-1]

    monkeypatch.setattr(publish_command, "follow", three_polls)
    digests, held = [], []
    made = publish_command.digest
    monkeypatch.setattr(publish_command, "digest", lambda cues: digests.append(len(cues)) or made(cues))
    checked = publish_command._catalog

    def catalog_read(*args):
        held.append(alive(Cue))
        return checked(*args)

    monkeypatch.setattr(publish_command, "_catalog", catalog_read)
    before = alive(Cue)

    # When it is published, and watched for three polls
    summary = publish(Target(s3, None, "source-bucket"), [folder], wait=1.0, progress=False)

    # Then the companions stay pending, each digested once as it was read, never as each poll asks
    assert summary.count("pending") == 2 and summary.count("published") == 3
    assert sorted(digests) == [5, 10]
    # And no companion's cues are alive while the command waits: the first poll reads the catalog
    # for all five files, and tells the episodes published; the next two, for the two companions
    assert len(held) == 5 + 2 * (polls - 1) and set(held) == {before}


def test_publish_tells_a_companion_published_once_the_catalog_keeps_its_cues_digest(s3, tmp_path):
    # Given a show published with its episodes and their companions, and the folder of them, sent again
    folder = tmp_path / "episodes" / "release-radio"
    shutil.copytree(RADIO, folder)
    published_from(s3, folder, "*")

    # When it is published, Then every file is told published at the first look
    summary = publish(Target(s3, None, "source-bucket"), [folder], wait=5, progress=False)
    assert summary.count("published") == 5
