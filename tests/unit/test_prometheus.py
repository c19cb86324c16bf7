#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""seg6ctl stats format prometheus, as test_genl's test_stats_prometheus
printed it (with -n 'r"1\\2' and its canned counters) into the file named
on the command line: read by the Prometheus client's own parser, and held
to the rules of the text format (0.0.4) that this parser lets pass."""
import re
import sys

try:
    from prometheus_client.parser import text_string_to_metric_families
except ImportError:
    sys.exit("test_prometheus: needs python3-prometheus-client "
             "(apt-get install python3-prometheus-client)")

NETNS = 'r"1\\2'
NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*_total$")
# seg6ctl(8): the counters every seg6x counts, at least
EVENTS = ("encap", "inline", "end", "decap", "hmac_signed", "hmac_verified",
          "local", "passed")
REASONS = {"hmac_missing", "hmac_invalid", "hmac_nokey", "bad_srh",
           "no_route", "hop_limit", "nomem"}


def check_layout(text):
    """Each family once: # HELP, # TYPE counter, then its samples only."""
    families, current, typed = set(), None, False
    for line in text.splitlines():
        if line.startswith("# HELP "):
            current, typed = line.split(" ", 3)[2], False
            assert NAME.match(current), line
            assert current not in families, f"{current} twice"
            families.add(current)
        elif line.startswith("# TYPE "):
            assert line == f"# TYPE {current} counter", line
            typed = True
        else:
            assert typed and re.match(r"[^{ ]+", line)[0] == current, line
            # escapes in label values: \\, \" and \n only (the parser
            # keeps any other backslash as it is)
            assert not re.search(r'\\[^\\"n]', re.sub(r"\\\\", "", line)), line
    return families


def parse(text):
    """{(sample name, labels but netns): value}; every sample has netns."""
    values = {}
    for family in text_string_to_metric_families(text):
        assert family.type == "counter" and family.documentation, family
        for s in family.samples:
            labels = dict(s.labels)
            assert labels.pop("netns", None) == NETNS, s
            key = (s.name, tuple(sorted(labels.items())))
            assert key not in values, f"{key} twice"
            values[key] = s.value
    return values


def main(path):
    with open(path) as f:
        text = f.read()
    families = check_layout(text)
    v = parse(text)
    for e in EVENTS:
        assert f"seg6x_{e}_total" in families, e
        assert (f"seg6x_{e}_total", ()) in v, e
    assert v[("seg6x_encap_total", ())] == 5
    reasons = {dict(k[1])["reason"] for k in v if k[0] == "seg6x_drops_total"}
    assert REASONS <= reasons, reasons
    assert v[("seg6x_drops_total", (("reason", "nomem"),))] == 3
    assert v[("seg6x_sid_behavior_packets_total",
              (("behavior", "End.DT6"),))] == 7
    sid = (("sid", "fc00:ff::2/128"),)
    assert [v[(f"seg6x_sid_{m}_total", sid)]
            for m in ("packets", "bytes", "errors")] == [7, 700, 1]
    assert "fc00:ff::3" not in text
    print(f"test_prometheus: passed ({len(families)} families, "
          f"{len(v)} samples)")


if __name__ == "__main__":
    main(sys.argv[1])
