"""podpages: crawler-facing podcast episode pages, feeds and sitemaps from episode metadata."""
