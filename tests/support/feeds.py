"""What tests read feeds with: the namespaces of their tags, and the date format RSS 2.0 wants."""

import re

NS = {
    "itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd",
    "podcast": "https://podcastindex.org/namespace/1.0",
    "atom": "http://www.w3.org/2005/Atom",
}
# RFC 2822 section 3.3, as RSS 2.0 wants pubDate: a day name, two-digit day, four-digit year, numeric zone.
RFC_2822 = re.compile(
    r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}"
    r" \d{2}:\d{2}:\d{2} [+-]\d{4}$"
)
