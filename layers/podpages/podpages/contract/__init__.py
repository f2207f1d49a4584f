"""The metadata contract: what a publisher may upload, and the keys it is uploaded under.

`documents` holds the models (`Episode`, `Show`) and the parsing that names every bad field;
`source_keys` the slugs and prefixes of the source bucket; `schemas` exports JSON Schema.
`fields` holds what the models are built from (`Contract`, `HttpsUrl`, `Seconds`, `since_v2`, `reject`),
`plain_text` the text types. v2's parts have a module each: `chapters`, `soundbites`, `persons` (with
`person_taxonomy.json`), `location`, `license`, `episode_extras` and `show_extras`; `serial` holds the
rule that spans a show and its episodes.
"""
