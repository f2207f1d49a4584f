"""The nearby-episodes API: the request (`request`), the catalogs it holds warm (`cache`) read
into a light index (`index`), the listing as JSON or HTML (`listing`), and its route (`api`).

It never imports render or publish: its cold start loads neither Jinja nor pydantic.
"""
