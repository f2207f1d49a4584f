"""The site as objects to write: episode, show and archive pages (`pages`), the feed (`feed`),
sitemaps, structured data, and the plans that say what to write and delete for a show (`plans`).

Pure code: it renders from a catalog and never talks to AWS. `whole_site` is the from-scratch
render that the publish path must equal, byte for byte.
"""
