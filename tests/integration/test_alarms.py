"""The alarms of template.yaml: each watches the metric of the resource it names, fires on the
first sign of trouble, stays quiet without data, and notifies the optional SNS topic."""

import pytest

from support.template import resource, template

ALARMS = {
    "RenderDeadLetterAlarm": (
        "AWS/SQS",
        "ApproximateNumberOfMessagesVisible",
        "QueueName",
        "RenderDeadLetterQueue.QueueName",
        0,
    ),
    "RenderQueueAgeAlarm": ("AWS/SQS", "ApproximateAgeOfOldestMessage", "QueueName", "RenderQueue.QueueName", 900),
    "NotifyDeadLetterAlarm": (
        "AWS/SQS",
        "ApproximateNumberOfMessagesVisible",
        "QueueName",
        "NotifyDeadLetterQueue.QueueName",
        0,
    ),
    "RenderErrorsAlarm": ("AWS/Lambda", "Errors", "FunctionName", "RenderFunction", 0),
    "NearbyServerErrorsAlarm": ("AWS/ApiGateway", "5xx", "ApiId", "NearbyApi", 0),
}


def test_every_alarm_of_the_template_is_one_of_these():
    declared = {name for name, body in template()["Resources"].items() if body["Type"] == "AWS::CloudWatch::Alarm"}

    assert declared == ALARMS.keys()


@pytest.mark.parametrize("name", sorted(ALARMS))
def test_an_alarm_watches_its_resource_and_notifies_the_optional_topic(name):
    namespace, metric, dimension, target, threshold = ALARMS[name]
    properties = resource(name)["Properties"]

    assert (properties["Namespace"], properties["MetricName"]) == (namespace, metric)
    assert properties["Dimensions"] == [{"Name": dimension, "Value": target}]
    assert properties["Threshold"] == threshold and properties["ComparisonOperator"] == "GreaterThanThreshold"
    assert properties["TreatMissingData"] == "notBreaching"
    for actions in ("AlarmActions", "OKActions"):
        assert properties[actions] == ["HasAlarmTopic", ["AlarmTopicArn"], "AWS::NoValue"]
    assert resource(target.split(".")[0])  # the watched resource is declared
