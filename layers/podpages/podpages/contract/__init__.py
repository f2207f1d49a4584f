"""The metadata contract: what a publisher may upload, and the keys it is uploaded under.

`documents` holds the models (`Episode`, `Show`) and the parsing that names every bad field;
`source_keys` the slugs and prefixes of the source bucket; `schemas` exports JSON Schema.
"""
