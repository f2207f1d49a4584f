"""Where each published thing lives on the site. Object keys follow from URL paths."""

SITEMAP_INDEX = "/sitemap.xml"
ROBOTS = "/robots.txt"
DEFAULT_COVER = "/cover.png"


def indexnow_key(key: str) -> str:
    """Where IndexNow looks for the site's key: a text file named by the key, holding it."""
    return f"/{key}.txt"


def episode(show: str, slug: str) -> str:
    return f"/{show}/{slug}/"


def transcript(show: str, slug: str) -> str:
    return f"/{show}/{slug}/transcript.txt"


def transcript_page(show: str, slug: str) -> str:
    """The full transcript as a page, for an episode whose transcript came as a companion file."""
    return f"/{show}/{slug}/transcript/"


def transcript_file(show: str, slug: str, extension: str) -> str:
    """The transcript in one format: `vtt`, `srt`, `json` (the podcast namespace's) or `txt`."""
    return f"/{show}/{slug}/transcript.{extension}"


def chapters(show: str, slug: str) -> str:
    """The episode's chapters, in the podcast namespace's JSON chapters format."""
    return f"/{show}/{slug}/chapters.json"


def show_home(show: str) -> str:
    return f"/{show}/"


def archive(show: str, year: int) -> str:
    return f"/{show}/{year}/"


def feed(show: str) -> str:
    return f"/{show}/feed.xml"


def feed_archive(show: str, page: int) -> str:
    """An RFC 5005 archive page of the show's feed, from 1, the oldest."""
    return f"/{show}/feed-archive-{page}.xml"


def show_sitemap(show: str, part: int = 1) -> str:
    """Part 1 keeps the address a show's one sitemap always had; the protocol caps a file's URLs."""
    return f"/{show}/sitemap.xml" if part == 1 else f"/{show}/sitemap-{part}.xml"


def object_key(path: str) -> str:
    """The site bucket key that serves `path`; CloudFront maps a directory URL to its index.html."""
    key = path.removeprefix("/")
    return f"{key}index.html" if key.endswith("/") or not key else key
