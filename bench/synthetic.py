"""Deterministic synthetic catalogues for the benchmarks: a folder laid out like the source bucket.

    python bench/synthetic.py OUT_DIR --episodes 10000 [--show bench]

The same arguments always write the same bytes: episode n is published n × 20 hours after the
first, with a summary, a transcript of a realistic length and a duration that vary with n; with
`--notes`, also show notes of about 900 characters of Markdown, as real shows write them: a
guest, links, a list of chapters, a quote and the credits; with `--companions`, a WebVTT companion
transcript of the whole hour beside each episode (about 600 cues, 130 KB), two speakers taking turns.
"""

import argparse
import json
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

START = datetime(2000, 1, 1, 6, tzinfo=UTC)
HOURS_APART = 20  # between one episode and the next: 438 a year
# Benchmarks that write whole sites read and write in memory where the machine offers it. On a disk,
# each run would pay for the files the last one deleted: on the ext4 of the machines this was built
# on, writing the same 20,000 files took 2.3, 9.8, 17.6, 19.5 and 20.2 s, each time after deleting
# the last copy, all of it kernel time, so that a run timed the disk's clean-up, not the tool.
RAM = Path("/dev/shm")
WORDS = [
    "kernel",
    "scheduler",
    "compiler",
    "backend",
    "tensor",
    "graph",
    "runtime",
    "memory",
    "cache",
    "allocator",
    "driver",
    "release",
    "regression",
    "benchmark",
    "profiler",
    "build",
    "packaging",
    "tests",
    "docs",
    "refactor",
    "cleanup",
    "feature",
    "fix",
    "review",
]


def text(seed: int, words: int) -> str:
    return " ".join(WORDS[(seed * 7 + i * 13 + i * i) % len(WORDS)] for i in range(words)).capitalize() + "."


def show_document(show: str) -> dict:
    return {
        "title": f"The {show.title()} Show",
        "description": text(1, 60),
        "categories": ["Technology"],
        "author": "Bench Host",
        "overview": "A synthetic show for the benchmarks.",
    }


def notes(number: int) -> str:
    """Show notes in Markdown: a guest, links, a list of chapters, a quote and the credits."""
    guest = text(number, 2)[:-1]
    return "\n\n".join(
        [
            f"In this episode we talk with **{guest}** about [{text(number + 1, 3)[:-1]}]"
            f"(https://example.com/topics/{number}) and why it still matters.",
            "## Links",
            f"- [{guest}'s website](https://guests.example.com/{number})\n"
            f"- [The release notes](https://example.com/releases/{number % 100}), out now\n"
            "- Our sponsor, *Acme Widgets*: <https://acme.example.com>",
            "## Chapters",
            "\n".join(f"{chapter}. {text(number + chapter, 6)}" for chapter in range(1, 6)),
            f"> {text(number + 7, 18)}",
            "Thanks to our supporters on [Patreon](https://patreon.example.com/bench). "
            "Music by Bench Host, licensed CC BY 4.0.",
        ]
    )


def companion(number: int, minutes: int = 60) -> str:
    """An hour's WebVTT, as a transcription tool writes it: a cue every 4 to 8 seconds, each of 18
    to 30 words, with the speaker's voice tag."""
    cues, start_ms = ["WEBVTT"], 0
    while start_ms < minutes * 60_000:
        cue = len(cues)
        end_ms = start_ms + 4_000 + (number * 31 + cue * 17) % 4_000
        speaker = ("Bench Host", "Guest Speaker")[(cue // 3) % 2]
        cues.append(f"{_vtt_time(start_ms)} --> {_vtt_time(end_ms)}\n<v {speaker}>{text(number + cue, 18 + cue % 13)}")
        start_ms = end_ms
    return "\n\n".join(cues) + "\n"


def _vtt_time(ms: int) -> str:
    minutes, ms = divmod(ms, 60_000)
    return f"{minutes // 60:02d}:{minutes % 60:02d}:{ms // 1000:02d}.{ms % 1000:03d}"


def episode_document(number: int, hours_apart: int = HOURS_APART, with_notes: bool = False) -> dict:
    published = START + timedelta(hours=hours_apart * number)
    return {
        "title": f"Episode {number}: {text(number, 5)[:-1]}",
        "published": published.isoformat().replace("+00:00", "Z"),
        "duration": f"PT{20 + number % 40}M{number % 60}S",
        "summary": text(number, 40 + number % 40),
        "audio": {
            "url": f"https://media.example.com/bench/{number}.mp3",
            "type": "audio/mpeg",
            "length": 1_000_000 + number,
        },
        "transcript": "\n\n".join(text(number + paragraph, 60) for paragraph in range(8)),
    } | ({"notes": notes(number)} if with_notes else {})


def workdir(prefix: str) -> Path:
    """A new folder for a benchmark's files, in memory where the machine has it (see RAM)."""
    return Path(tempfile.mkdtemp(prefix=prefix, dir=RAM if RAM.is_dir() else None))


def write_catalogue(
    out: Path,
    episodes: int,
    show: str = "bench",
    first: int = 0,
    hours_apart: int = HOURS_APART,
    with_notes: bool = False,
    with_companions: bool = False,
) -> Path:
    """Episodes `first` to `first + episodes - 1` of the show, and its document."""
    (out / "shows").mkdir(parents=True, exist_ok=True)
    (out / "shows" / f"{show}.json").write_text(json.dumps(show_document(show)))
    folder = out / "episodes" / show
    folder.mkdir(parents=True, exist_ok=True)
    for number in range(first, first + episodes):
        (folder / f"{slug(number)}.json").write_text(json.dumps(episode_document(number, hours_apart, with_notes)))
        if with_companions:
            (folder / f"{slug(number)}.vtt").write_text(companion(number))
    return out


def slug(number: int) -> str:
    """The slug of the show's episode `number`, counted from 0, the oldest."""
    return f"episode-{number:05d}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--show", default="bench")
    parser.add_argument("--notes", action="store_true", help="give every episode show notes")
    parser.add_argument("--companions", action="store_true", help="give every episode an hour's WebVTT")
    options = parser.parse_args()
    write_catalogue(
        options.out, options.episodes, options.show, with_notes=options.notes, with_companions=options.companions
    )
    print(f"wrote {options.episodes} episodes of {options.show} to {options.out}")


if __name__ == "__main__":
    main()
