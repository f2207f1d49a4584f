"""The local stack: the whole product on one machine, with no AWS account.

moto's server stands in for S3 and SQS, a poller for Lambda's SQS event source mapping, and a
small HTTP server for CloudFront and the HTTP API. Everything is read from template.yaml and
events/env.json, so the local stack cannot drift from what is deployed. Development only: it
needs the `local` extra (moto, PyYAML, tqdm), and the Lambda functions never import it.
"""

LOCAL_ENDPOINT = "http://127.0.0.1:4566"  # where `make demo` serves S3 and SQS unless told otherwise
