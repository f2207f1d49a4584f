"""What tests read feeds with: the namespaces of their tags, the tags Apple requires, and the date format
RSS 2.0 wants."""

import re

NS = {
    "itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd",
    "podcast": "https://podcastindex.org/namespace/1.0",
    "atom": "http://www.w3.org/2005/Atom",
    "content": "http://purl.org/rss/1.0/modules/content/",
    "psc": "http://podlove.org/simple-chapters",
}
# Apple's required tags (Apple Podcasts' RSS feed requirements), as XPath from the channel and from an item.
APPLE_CHANNEL = ["title", "description", "language", "itunes:image/@href", "itunes:category/@text", "itunes:explicit"]
APPLE_ITEM = ["title", "enclosure/@url", "enclosure/@length", "enclosure/@type", "guid"]
# RFC 2822 section 3.3, as RSS 2.0 wants pubDate: a day name, two-digit day, four-digit year, numeric zone.
RFC_2822 = re.compile(
    r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}"
    r" \d{2}:\d{2}:\d{2} [+-]\d{4}$"
)
