"""The `podpages` command (`main`): validate and render with no AWS, and publish to, rebuild and
inspect the local stack or a deployed one. Development tooling, left out of the Lambda layer:
it needs tqdm, and the demo needs the local stack.
"""
