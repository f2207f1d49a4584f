"""template.yaml's security posture: checkov finds nothing it was not told why to skip; both buckets are
private, encrypted and TLS-only; the site is read only through this distribution; each function may do
exactly what it needs; responses carry the security headers; and rendering can never trigger itself."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from podpages.nearby.api import ORIGIN_HEADER
from podpages.publish.show_lease import LEASE_SECONDS
from support.paths import ROOT as REPO
from support.paths import TEMPLATE
from support.template import resource, template

# It cannot share the dev extra's venv (see pyproject.toml), so it is pinned here and installed apart.
CHECKOV_VERSION = "3.3.30"
INSTALL_CHECKOV = (
    f"python3.13 -m venv .venv/opt/checkov && .venv/opt/checkov/bin/pip install checkov=={CHECKOV_VERSION} "
    "&& ln -s ../opt/checkov/bin/checkov .venv/bin/checkov"
)
# What checkov reports for a skip that gives no reason.
CHECKOV_NO_COMMENT = "No comment provided"

BUCKETS = ["SourceBucket", "SiteBucket"]
SOURCE = "${SourceBucket.Arn}"
SITE = "${SiteBucket.Arn}"
THIS_DISTRIBUTION = "arn:${AWS::Partition}:cloudfront::${AWS::AccountId}:distribution/${Distribution}"

GET, PUT, DELETE, LIST = "s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:ListBucket"
# Every (action, resource) each function's role is granted in template.yaml, and nothing else.
GRANTS = {
    "RenderFunction": {
        (GET, f"{SOURCE}/episodes/*"),
        (GET, f"{SOURCE}/shows/*"),
        *{(action, f"{SOURCE}/catalog/*") for action in (GET, PUT, DELETE)},
        # Error reports are read by the CLI, never by the function.
        *{(action, f"{SOURCE}/errors/*") for action in (PUT, DELETE)},
        *{(action, f"{SOURCE}/locks/*") for action in (GET, PUT, DELETE)},
        (LIST, "SourceBucket.Arn"),
        *{(action, f"{SITE}/*") for action in (PUT, DELETE)},
        # A large feed is a multipart upload, aborted when it fails.
        ("s3:AbortMultipartUpload", f"{SITE}/*"),
        (GET, f"{SITE}/sitemap.xml"),
        (GET, f"{SITE}/*/feed.xml"),
        ("cloudfront:CreateInvalidation", THIS_DISTRIBUTION),
        (LIST, "SiteBucket.Arn"),
        # One notification per batch; the notify function makes the outbound calls.
        ("sqs:SendMessage", "NotifyQueue.Arn"),
    },
    # It reads its queue through the SQS event's policy, and calls out over HTTPS: nothing else.
    "NotifyFunction": set(),
    "NearbyFunction": {
        (GET, f"{SOURCE}/catalog/*"),
        (LIST, "SourceBucket.Arn"),
    },
    # The deploy-time rebuild reads the catalogs and queues requests; it writes nothing itself.
    "RebuildFunction": {
        (GET, f"{SOURCE}/catalog/*"),
        (LIST, "SourceBucket.Arn"),
        ("sqs:SendMessage", "RebuildQueue.Arn"),
    },
}
READ_ONLY_ACTIONS = {GET, LIST}
RENDER_WRITES_TO = {"catalog/", "errors/", "locks/"}
NOTIFICATION_KINDS = ["QueueConfigurations", "LambdaConfigurations", "TopicConfigurations"]


@pytest.fixture(scope="module")
def checkov() -> str:
    beside_interpreter = Path(sys.executable).with_name("checkov")
    found = str(beside_interpreter) if beside_interpreter.exists() else shutil.which("checkov")
    if found is None:
        message = (
            "SKIPPED: no `checkov` executable beside this Python or on PATH, so template.yaml was NOT scanned. "
            f"Its boto3 pin clashes with aws-sam-cli's, so `make install` installs it apart: {INSTALL_CHECKOV}"
        )
        if os.environ.get("PODPAGES_REQUIRE_CHECKERS"):
            pytest.fail(message)
        pytest.skip(message)
    return found


@pytest.fixture(scope="module")
def checkov_report(checkov) -> dict:
    # --skip-download: no request to Prisma Cloud for guidelines; the scan itself is local.
    command = [checkov, "--file", str(TEMPLATE), "--framework", "cloudformation", "--output", "json", "--skip-download"]
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)
    # checkov exits 1 when a check fails; any other failure leaves no report to read
    assert result.returncode in (0, 1), f"checkov exited {result.returncode}\n{result.stderr[-4000:]}"
    return json.loads(result.stdout)


def _listed(value) -> list:
    return value if isinstance(value, list) else [value]


def _declared_skips() -> dict[tuple[str, str], str]:
    """(check id, checkov's resource name) -> reason, for every skip in a resource's Metadata."""
    return {
        (skip["id"], f"{body['Type']}.{logical_id}"): skip.get("comment", "")
        for logical_id, body in template()["Resources"].items()
        for skip in body.get("Metadata", {}).get("checkov", {}).get("skip", [])
    }


def _bucket_policy(bucket: str) -> list[dict]:
    [policy] = [
        body["Properties"]["PolicyDocument"]
        for body in template()["Resources"].values()
        if body["Type"] == "AWS::S3::BucketPolicy" and body["Properties"]["Bucket"] == bucket
    ]
    return policy["Statement"]


def _grants(function: str) -> set[tuple[str, str]]:
    """(action, resource) for every statement of the function's policies, which must all be inline statements."""
    properties = resource(function)["Properties"]
    assert "Role" not in properties, "a role of its own would bypass the policies checked here"
    pairs = set()
    for policy in properties["Policies"]:
        # Not a SAM policy template or a managed policy name: their grants are not written here.
        assert isinstance(policy, dict) and set(policy) == {"Statement"}, policy
        for statement in policy["Statement"]:
            assert statement["Effect"] == "Allow", statement
            assert set(statement) <= {"Sid", "Effect", "Action", "Resource"}, statement  # no NotAction, no Condition
            pairs |= {
                (action, res) for action in _listed(statement["Action"]) for res in _listed(statement["Resource"])
            }
    return pairs


def _written_prefixes(function: str) -> set[str]:
    """The key prefixes under which the function may create, change or delete objects in the source bucket."""
    prefixes = set()
    for action, res in _grants(function):
        if action in READ_ONLY_ACTIONS or res.startswith(f"{SITE}/") or not action.startswith("s3:"):
            continue  # reads, the site bucket, and other services (a CloudFront invalidation) write no source key
        # Anything else may write the source bucket ("*" would too), so it must name a place in it.
        assert res.startswith(f"{SOURCE}/"), (action, res)
        pattern = res.removeprefix(f"{SOURCE}/")
        # Only a trailing * is reasoned about below; an exact key or a wildcard elsewhere must be added with care.
        assert pattern.endswith("*") and not any(c in pattern[:-1] for c in "*?"), res
        prefixes.add(pattern[:-1])
    return prefixes


def _notification_rules(bucket: str) -> list[tuple[str, str, str]]:
    """(event, prefix, suffix) for every notification of the bucket; a missing rule matches any key."""
    configuration = resource(bucket)["Properties"].get("NotificationConfiguration", {})
    rules = []
    for kind in NOTIFICATION_KINDS:
        for item in configuration.get(kind, []):
            named = {
                rule["Name"].lower(): rule["Value"] for rule in item.get("Filter", {}).get("S3Key", {}).get("Rules", [])
            }
            rules.append((item["Event"], named.get("prefix", ""), named.get("suffix", "")))
    return rules


def _a_written_key_it_matches(written_prefix: str, rule_prefix: str, rule_suffix: str) -> str | None:
    """A key under `written_prefix` that the rule matches, or None when no such key exists.

    The function may write any key that starts with `written_prefix`, so it may append anything, the
    rule's suffix included: the suffix never rules a key out. What is left is the two prefixes. A key
    starts with both exactly when one of them starts with the other; then the longer one plus the
    suffix is such a key. When neither starts with the other, they differ at some character within
    both, and no key can start with both.
    """
    if rule_prefix.startswith(written_prefix):
        return rule_prefix + rule_suffix
    if written_prefix.startswith(rule_prefix):
        return written_prefix + rule_suffix
    return None


# ------------------------------------------------------------------------------------------------ checkov


def test_checkov_scans_every_resource_and_fails_none(checkov_report):
    # Given checkov's report on template.yaml
    summary = checkov_report["summary"]
    failed = [
        (item["check_id"], item["resource"], item["check_name"]) for item in checkov_report["results"]["failed_checks"]
    ]

    # Then every resource was read, checks ran, and none failed
    assert checkov_report["check_type"] == "cloudformation"
    assert summary["parsing_errors"] == 0
    assert summary["resource_count"] == len(template()["Resources"]), summary
    assert summary["passed"] > 0
    assert failed == [], f"checkov {summary['checkov_version']} (pinned {CHECKOV_VERSION}) found: {failed}"


def test_every_check_checkov_skips_says_why(checkov_report):
    # Given the checks skipped in the scan, and the skips declared on the template's resources
    skipped = {
        (item["check_id"], item["resource"]): item["check_result"].get("suppress_comment", "")
        for item in checkov_report["results"].get("skipped_checks", [])
    }
    declared = _declared_skips()

    # Then each skip was declared on its resource with a reason, and each declared skip still skips a check
    for check, comment in skipped.items():
        assert comment.strip() and comment != CHECKOV_NO_COMMENT, f"{check} is skipped without a reason"
    assert set(skipped) == set(declared), "a skip names a check checkov does not run on that resource, or vice versa"
    for check, comment in declared.items():
        assert len(comment.split()) >= 5, f"{check}: {comment!r} is not a reason"


# ----------------------------------------------------------------------------------------------- storage


@pytest.mark.parametrize("bucket", BUCKETS)
def test_bucket_blocks_all_public_access(bucket):
    block = resource(bucket)["Properties"]["PublicAccessBlockConfiguration"]

    assert block == {
        "BlockPublicAcls": True,
        "BlockPublicPolicy": True,
        "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True,
    }


@pytest.mark.parametrize("bucket", BUCKETS)
def test_bucket_encrypts_every_object_and_owns_them(bucket):
    properties = resource(bucket)["Properties"]
    rules = properties["BucketEncryption"]["ServerSideEncryptionConfiguration"]

    assert rules
    assert {rule["ServerSideEncryptionByDefault"]["SSEAlgorithm"] for rule in rules} <= {
        "AES256",
        "aws:kms",
        "aws:kms:dsse",
    }
    # ACLs off: only policies grant access.
    assert properties["OwnershipControls"]["Rules"] == [{"ObjectOwnership": "BucketOwnerEnforced"}]


def test_the_site_bucket_drops_the_parts_of_a_feed_upload_cut_short():
    rules = resource("SiteBucket")["Properties"]["LifecycleConfiguration"]["Rules"]

    assert [rule["AbortIncompleteMultipartUpload"] for rule in rules if rule["Status"] == "Enabled"] == [
        {"DaysAfterInitiation": 1}
    ]


@pytest.mark.parametrize("bucket", BUCKETS)
def test_bucket_policy_denies_every_request_without_tls(bucket):
    # Given the bucket's policy
    statements = _bucket_policy(bucket)

    # Then one statement denies everyone every action on the bucket and its objects unless TLS is used
    denies = [
        statement
        for statement in statements
        if statement["Effect"] == "Deny"
        and statement["Principal"] in ("*", {"AWS": "*"})
        and "s3:*" in _listed(statement["Action"])
        and set(_listed(statement["Resource"])) >= {f"{bucket}.Arn", f"${{{bucket}.Arn}}/*"}
        and statement.get("Condition")
        in ({"Bool": {"aws:SecureTransport": "false"}}, {"Bool": {"aws:SecureTransport": False}})
    ]
    assert len(denies) == 1, statements


def test_source_bucket_policy_allows_nobody():
    # Only the function roles reach the source bucket, through their own policies.
    assert [statement for statement in _bucket_policy("SourceBucket") if statement["Effect"] != "Deny"] == []


def test_site_bucket_is_readable_only_by_this_distribution():
    # Given every grant of the site bucket's policy
    allows = [statement for statement in _bucket_policy("SiteBucket") if statement["Effect"] != "Deny"]

    # Then each is to CloudFront, on behalf of this distribution only, to read
    assert allows
    for statement in allows:
        assert statement["Principal"] == {"Service": "cloudfront.amazonaws.com"}, statement
        assert set(_listed(statement["Action"])) <= {GET, LIST}, statement
        conditions = {
            operator: {key.lower(): value for key, value in keys.items()}
            for operator, keys in statement["Condition"].items()
        }
        assert conditions == {"StringEquals": {"aws:sourcearn": THIS_DISTRIBUTION}}, statement
    assert any(GET in _listed(s["Action"]) and f"{SITE}/*" in _listed(s["Resource"]) for s in allows)


def test_the_site_origin_signs_every_request_with_origin_access_control():
    # Given the distribution's origin for the site bucket
    config = resource("Distribution")["Properties"]["DistributionConfig"]
    [origin] = [item for item in config["Origins"] if item["DomainName"] == "SiteBucket.RegionalDomainName"]
    control = resource("SiteOriginAccessControl")["Properties"]["OriginAccessControlConfig"]

    # Then it reaches the bucket through an origin access control that signs always, not a legacy identity
    assert origin["OriginAccessControlId"] == "SiteOriginAccessControl.Id"
    assert origin["S3OriginConfig"]["OriginAccessIdentity"] == ""
    assert (control["OriginAccessControlOriginType"], control["SigningBehavior"], control["SigningProtocol"]) == (
        "s3",
        "always",
        "sigv4",
    )
    assert config["DefaultCacheBehavior"]["TargetOriginId"] == origin["Id"]


# ------------------------------------------------------------------------------------------------ IAM


@pytest.mark.parametrize("function", sorted(GRANTS))
def test_function_may_do_exactly_what_it_needs(function):
    assert _grants(function) == GRANTS[function]


@pytest.mark.parametrize("function", sorted(GRANTS))
def test_function_policies_name_no_wildcard_action_or_resource(function):
    grants = _grants(function)
    named = ("SourceBucket.Arn", "SiteBucket.Arn", "RebuildQueue.Arn", "NotifyQueue.Arn", THIS_DISTRIBUTION)

    assert [action for action, _ in grants if "*" in action] == []
    assert [res for _, res in grants if not (res in named or res.startswith((f"{SOURCE}/", f"{SITE}/")))] == []


def test_the_render_function_queues_notifications_only_when_someone_is_to_be_told():
    variables = resource("RenderFunction")["Properties"]["Environment"]["Variables"]
    # The loader reads !Or, !And, !Not and !Equals as nested lists of their arguments.
    [[hubs], [pings], [[key], [endpoint]]] = template()["Conditions"]["HasNotifications"]

    assert variables["NOTIFY_QUEUE_URL"] == ["HasNotifications", "NotifyQueue", ""]
    assert [hubs, pings, key, endpoint] == [
        [name, ""] for name in ("WebSubHubs", "PingEndpoints", "IndexNowKey", "IndexNowEndpoint")
    ]


def test_notifications_fail_into_a_dead_letter_queue_of_their_own():
    queue = resource("NotifyQueue")["Properties"]
    [event] = resource("NotifyFunction")["Properties"]["Events"].values()

    assert queue["RedrivePolicy"]["deadLetterTargetArn"] == "NotifyDeadLetterQueue.Arn"
    assert event["Properties"]["Queue"] == "NotifyQueue.Arn"
    assert event["Properties"]["FunctionResponseTypes"] == ["ReportBatchItemFailures"]


@pytest.mark.parametrize(
    ("function_name", "queue_name"),
    [("RenderFunction", "RenderQueue"), ("RenderFunction", "RebuildQueue"), ("NotifyFunction", "NotifyQueue")],
)
def test_a_queue_hides_a_message_for_six_runs_of_the_function_that_takes_it(function_name, queue_name):
    # SQS's guidance: the visibility timeout covers six runs of the function and the batching window.
    function = resource(function_name)["Properties"]
    [event] = [event for event in function["Events"].values() if event["Properties"]["Queue"] == f"{queue_name}.Arn"]
    window = event["Properties"].get("MaximumBatchingWindowInSeconds", 0)
    assert resource(queue_name)["Properties"]["VisibilityTimeout"] >= 6 * function["Timeout"] + window


def test_a_live_publish_never_outlasts_its_show_lease():
    # A lease that expired under a publish still running would let a second publish of the show in.
    assert resource("RenderFunction")["Properties"]["Timeout"] < LEASE_SECONDS


def test_render_function_runs_no_more_copies_than_its_queue_allows():
    # The event source mapping bounds contention on the catalogs; reserving concurrency instead
    # would fail to deploy on new accounts (see the CKV_AWS_115 skip).
    properties = resource("RenderFunction")["Properties"]
    events = properties["Events"].values()

    assert [event["Properties"]["ScalingConfig"]["MaximumConcurrency"] for event in events] == [2, 2]
    assert "ReservedConcurrentExecutions" not in properties


# -------------------------------------------------------------------------------------------- headers


def test_security_headers_policy_sets_hsts_csp_nosniff_and_referrer_policy():
    config = resource("SecurityHeadersPolicy")["Properties"]["ResponseHeadersPolicyConfig"]["SecurityHeadersConfig"]
    hsts = config["StrictTransportSecurity"]
    csp = [directive.strip() for directive in config["ContentSecurityPolicy"]["ContentSecurityPolicy"].split(";")]

    assert hsts["AccessControlMaxAgeSec"] >= 365 * 24 * 3600
    assert hsts["IncludeSubdomains"] is True and hsts["Override"] is True
    assert "default-src 'none'" in csp
    assert config["ContentTypeOptions"]["Override"] is True  # CloudFront's value is always nosniff
    assert config["ReferrerPolicy"]["ReferrerPolicy"] in {
        "no-referrer",
        "same-origin",
        "strict-origin",
        "strict-origin-when-cross-origin",
    }


def test_cors_lets_any_origin_read_and_nothing_more():
    # Browser-based podcast apps fetch chapters.json and transcripts from their own origins.
    cors = resource("SecurityHeadersPolicy")["Properties"]["ResponseHeadersPolicyConfig"]["CorsConfig"]

    assert cors["AccessControlAllowOrigins"]["Items"] == ["*"]
    assert cors["AccessControlAllowMethods"]["Items"] == ["GET", "HEAD"]
    assert cors["AccessControlAllowCredentials"] is False
    assert cors["OriginOverride"] is False  # the nearby API's own header stands


def test_every_cache_behaviour_adds_the_security_headers():
    config = resource("Distribution")["Properties"]["DistributionConfig"]
    behaviours = {"default": config["DefaultCacheBehavior"]} | {
        item["PathPattern"]: item for item in config["CacheBehaviors"]
    }

    assert "/api/*" in behaviours
    assert {path: item.get("ResponseHeadersPolicyId") for path, item in behaviours.items()} == dict.fromkeys(
        behaviours, "SecurityHeadersPolicy"
    )


def test_cloudfront_proves_itself_to_the_api_with_a_header_whose_value_the_template_generates():
    # Given the header CloudFront adds to what it sends the API's origin, and the secret the function checks
    config = resource("Distribution")["Properties"]["DistributionConfig"]
    [behaviour] = [item for item in config["CacheBehaviors"] if item["PathPattern"] == "/api/*"]
    [origin] = [item for item in config["Origins"] if item["Id"] == behaviour["TargetOriginId"]]
    [header] = origin["OriginCustomHeaders"]
    secret = resource("NearbyFunction")["Properties"]["Environment"]["Variables"]["ORIGIN_SECRET"]

    # Then the function reads that header, and expects the value CloudFront sends: an expression, never a literal
    assert header["HeaderName"].lower() == ORIGIN_HEADER
    assert header["HeaderValue"] == secret
    assert not isinstance(secret, str), f"ORIGIN_SECRET is written into the template: {secret!r}"


# -------------------------------------------------------------------------------------------- no loop


def test_no_key_the_render_function_may_write_matches_a_source_bucket_notification():
    # Given where the render function may write in the source bucket, and every notification rule there
    written = _written_prefixes("RenderFunction")
    rules = _notification_rules("SourceBucket")

    # Then it writes only its own prefixes, and no key under them matches any rule, whatever its name
    assert written == RENDER_WRITES_TO
    assert rules, "the source bucket notifies nothing: uploads would never be rendered"
    matches = [
        (event, prefix, suffix, key)
        for written_prefix in sorted(written)
        for event, prefix, suffix in rules
        if (key := _a_written_key_it_matches(written_prefix, prefix, suffix)) is not None
    ]
    assert matches == [], f"the function could trigger itself: (event, prefix, suffix, key it may write) {matches}"
    # EventBridge gets every event unfiltered, so a rule there could lead back to the function.
    assert "EventBridgeConfiguration" not in resource("SourceBucket")["Properties"]["NotificationConfiguration"]


def test_the_site_bucket_notifies_nothing_and_only_the_queue_invokes_rendering():
    assert "NotificationConfiguration" not in resource("SiteBucket")["Properties"]
    events = resource("RenderFunction")["Properties"]["Events"].values()
    assert [(event["Type"], event["Properties"]["Queue"]) for event in events] == [
        ("SQS", "RenderQueue.Arn"),
        ("SQS", "RebuildQueue.Arn"),
    ]
    # Rebuild requests come from the CLI and from SiteRebuild's function, never from rendering, which
    # may send only to the notify queue, which no function of the publish path reads.
    assert [grant for grant in _grants("RenderFunction") if grant[0].startswith("sqs:")] == [
        ("sqs:SendMessage", "NotifyQueue.Arn")
    ]


@pytest.mark.parametrize(
    ("written_prefix", "rule_prefix", "rule_suffix", "matches"),
    [
        ("catalog/", "episodes/", ".json", False),
        ("catalog/", "", ".json", True),  # no prefix rule: every key
        ("catalog/", "cat", "", True),  # the rule's prefix starts the written one
        ("catalog/", "catalog/old/", ".json", True),  # the written prefix starts the rule's
        ("catalog/", "catalogue/", ".json", False),  # they share "catalog" but part at the "/"
        ("errors/", "errors/episodes/", ".json", True),
        ("locks/", "shows/", ".json", False),
    ],
)
def test_the_overlap_reasoning(written_prefix, rule_prefix, rule_suffix, matches):
    key = _a_written_key_it_matches(written_prefix, rule_prefix, rule_suffix)

    assert (key is not None) == matches
    if key is not None:  # the witness is real: the function may write it and the rule matches it
        assert key.startswith(written_prefix) and key.startswith(rule_prefix) and key.endswith(rule_suffix)
