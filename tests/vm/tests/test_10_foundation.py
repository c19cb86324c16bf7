# SPDX-License-Identifier: GPL-2.0
"""Module loads from DKMS, parameters, INFO, tunsrc, namespaces."""
import json
import os
import subprocess

import pytest

from conftest import (SEG6CTL, VERSION, ctl, load_module, module_loaded,
                      unload_module)
from lib.netns import sh


_marks = [0]


def mark():
    """Write a marker into the kernel log (never clear it: test_99 reads
    the whole session's log)."""
    _marks[0] += 1
    with open("/dev/kmsg", "w") as f:
        f.write(f"seg6x-test-mark-{_marks[0]}\n")


def dmesg():
    """Kernel log since the last mark()."""
    log = sh(["dmesg"]).stdout
    return log.split(f"seg6x-test-mark-{_marks[0]}", 1)[-1]


def test_module_comes_from_dkms(seg6x):
    # The debug kernel has no DKMS: check-debug installs into updates/.
    where = os.environ.get("SEG6X_MODULE_DIR", "/updates/dkms/")
    path = sh(["modinfo", "-n", "seg6x"]).stdout.strip()
    assert where in path, path
    assert sh(["modinfo", "-F", "version", "seg6x"]).stdout.strip() == VERSION


def test_info_reports_version_and_slot(seg6x):
    p = ctl("info")
    assert "warning" not in p.stderr        # module and seg6ctl agree
    info = ctl("info", js=True)
    assert info["version"] == info["tools_version"] == VERSION
    assert info["json_schema"] == 1
    # Debian 6.1/6.12 build none of IOAM6 (9) / RPL (8): auto takes IOAM6
    assert info["lwt_type"] == 9
    assert info["allow_inline"] is True


def test_parameters_readable(seg6x):
    for p, v in [("seg6_enabled", "0"), ("seg6_require_hmac", "0"),
                 ("allow_inline", "1"), ("lwt_type", "0")]:
        with open(f"/sys/module/seg6x/parameters/{p}") as f:
            assert f.read().strip() == v


def test_tunsrc_round_trip(seg6x):
    sh(["ip", "netns", "add", "tsa"])
    sh(["ip", "netns", "add", "tsb"])
    try:
        assert ctl("tunsrc", "show", ns="tsa", js=True) == {"tunsrc": "::"}
        ctl("tunsrc", "set", "fc00:0:0:0::1", ns="tsa")
        assert ctl("tunsrc", "show", ns="tsa", js=True) == \
            {"tunsrc": "fc00::1"}
        assert ctl("tunsrc", "show", ns="tsa").stdout.strip() == \
            "tunsrc fc00::1"
        # the other namespace keeps its own
        assert ctl("tunsrc", "show", ns="tsb", js=True) == {"tunsrc": "::"}
        ctl("tunsrc", "set", "2001:db8::7", ns="tsb")
        assert ctl("tunsrc", "show", ns="tsa", js=True)["tunsrc"] == \
            "fc00::1"
        assert ctl("tunsrc", "show", ns="tsb", js=True)["tunsrc"] == \
            "2001:db8::7"
        ctl("tunsrc", "set", "::", ns="tsa")
        assert ctl("tunsrc", "show", ns="tsa", js=True)["tunsrc"] == "::"
    finally:
        sh(["ip", "netns", "del", "tsa"], check=False)
        sh(["ip", "netns", "del", "tsb"], check=False)


@pytest.mark.parametrize("args", [
    ["tunsrc", "set", "fc00::zz"],
    ["tunsrc", "set", "10.0.0.1"],
    ["tunsrc", "set"],
    ["tunsrc", "set", "fc00::1", "extra"],
    ["tunsrc", "frobnicate"],
    ["frobnicate", "show"],
])
def test_bad_input_is_usage_error_and_changes_nothing(seg6x, args):
    ctl("tunsrc", "set", "fc00::99")
    p = ctl(*args, check=False)
    assert p.returncode == 2, p
    assert p.stderr.startswith("seg6ctl:") or "seg6ctl" in p.stderr
    assert ctl("tunsrc", "show", js=True)["tunsrc"] == "fc00::99"
    ctl("tunsrc", "set", "::")


def test_kernel_refusal_is_exit_1_with_extack(seg6x):
    # only the kernel knows which keys it holds
    p = ctl("hmac", "del", "4242", check=False)
    assert p.returncode == 1
    assert p.stderr.startswith("seg6ctl:")
    assert "no HMAC key" in p.stderr    # the kernel's extack text


def test_address_the_kernel_refuses_is_a_usage_error(seg6x):
    p = ctl("tunsrc", "set", "ff02::1", check=False)
    assert p.returncode == 2 and "unicast" in p.stderr


@pytest.mark.parametrize("param", ["seg6_require_hmac=5", "seg6_enabled=2",
                                   "allow_inline=-1", "lwt_type=99",
                                   "seg6_require_hmac=abc"])
def test_bad_parameter_fails_modprobe_with_log_line(param):
    if module_loaded():
        unload_module()
    mark()
    p = subprocess.run(["modprobe", "seg6x", param], capture_output=True,
                       text=True)
    assert p.returncode != 0
    assert not module_loaded()
    name = param.split("=")[0]
    log = dmesg()
    assert f"invalid value '{param.split('=')[1]}' for parameter {name}" \
        in log, log
    load_module()


def test_explicit_slot_taken_fails_cleanly():
    if module_loaded():
        unload_module()
    mark()
    # 5 is the in-tree seg6, built into every Debian kernel
    p = subprocess.run(["modprobe", "seg6x", "lwt_type=5"],
                       capture_output=True, text=True)
    assert p.returncode != 0 and not module_loaded()
    assert "lwt_type=5: this encap slot is already registered" in dmesg()
    load_module()


@pytest.mark.parametrize("slot", [2, 4, 10])
def test_slots_read_by_other_code_refused(slot):
    """IP, IP6 and XFRM route states are read by other kernel code as its
    own (lwt_tun_info(), skb_xfrm_md_info()): never claimed."""
    if module_loaded():
        unload_module()
    mark()
    p = subprocess.run(["modprobe", "seg6x", f"lwt_type={slot}"],
                       capture_output=True, text=True)
    assert p.returncode != 0 and not module_loaded()
    assert f"lwt_type={slot}: other kernel code reads routes" in dmesg()
    load_module()


def test_parameters_reach_new_namespaces():
    unload_module()
    load_module("seg6_enabled=1", "seg6_require_hmac=-1", "allow_inline=0")
    try:
        sh(["ip", "netns", "add", "pdef"])
        d = ctl("iface", "show", ns="pdef", js=True)
        assert d[0] == {"ifname": "default", "seg6_enabled": 1,
                        "require_hmac": -1}
        assert ctl("info", js=True)["allow_inline"] is False
    finally:
        sh(["ip", "netns", "del", "pdef"], check=False)
        unload_module()
        load_module()


def test_unload_then_autoload(seg6x):
    unload_module()
    assert not module_loaded()
    # reads never bring back a module removed on purpose (a metrics
    # poller must not): they say it is not loaded
    for args in (["info"], ["stats"], ["-j", "stats", "show"],
                 ["route", "show"], ["sid", "show"], ["save"]):
        p = ctl(*args, check=False)
        assert p.returncode == 1, (args, p.stderr)
        assert "seg6x module is not loaded" in p.stderr, p.stderr
        assert not module_loaded()
    # the first change loads it (genl family alias)
    p = ctl("stats", "reset", check=False)
    assert p.returncode == 0, p.stderr
    assert module_loaded()
    assert ctl("info", check=False).returncode == 0


def test_iface_set_show(seg6x):
    sh(["ip", "netns", "add", "ifx"])
    try:
        sh(["ip", "-n", "ifx", "link", "add", "d0", "type", "dummy"])
        d = ctl("iface", "show", ns="ifx", js=True)
        # every device, by ifindex: lo, those a kernel creates in each
        # namespace (sit0 where SIT is built in), d0
        links = json.loads(sh(["ip", "-n", "ifx", "-j", "link"]).stdout)
        devs = [e["ifname"] for e in sorted(links, key=lambda e: e["ifindex"])]
        assert devs[0] == "lo" and devs[-1] == "d0"
        assert [e["ifname"] for e in d] == ["default"] + devs
        ctl("iface", "set", "d0", "seg6_enabled", "1", ns="ifx")
        ctl("iface", "set", "default", "require_hmac", "1", ns="ifx")
        d = {e["ifname"]: e for e in ctl("iface", "show", ns="ifx", js=True)}
        assert d["d0"] == {"ifname": "d0", "seg6_enabled": 1,
                           "require_hmac": 1}
        assert d["lo"]["seg6_enabled"] == 0 and d["lo"]["require_hmac"] == 1
        one = ctl("iface", "show", "d0", ns="ifx", js=True)
        assert one == [d["d0"]]
        for bad in (["iface", "set", "d0", "seg6_enabled", "2"],
                    ["iface", "set", "d0", "require_hmac", "-2"],
                    ["iface", "set", "d0"],
                    ["iface", "set", "d0", "bogus", "1"]):
            assert ctl(*bad, ns="ifx", check=False).returncode == 2, bad
        p = ctl("iface", "set", "nosuch", "seg6_enabled", "1", ns="ifx",
                check=False)
        assert p.returncode == 1
        d2 = {e["ifname"]: e for e in ctl("iface", "show", ns="ifx", js=True)}
        assert d2 == d
    finally:
        sh(["ip", "netns", "del", "ifx"], check=False)


def test_stats_show_reset(seg6x):
    s = ctl("stats", "show", js=True)
    for k in ("encap", "inline", "end", "decap", "hmac_signed",
              "hmac_verified"):
        assert k in s
    for k in ("disabled", "hmac_missing", "hmac_invalid", "hmac_nokey",
              "bad_srh", "no_route", "hop_limit", "nomem"):
        assert k in s["drop"]
    ctl("stats", "reset")
    assert ctl("stats", js=True)["end"] == 0


def _as_nobody(*args):
    return subprocess.run(
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
         "--inh-caps=-all", SEG6CTL] + list(args),
        capture_output=True, text=True)


@pytest.mark.parametrize("args", [["info"], ["stats"], ["iface", "show"],
                                  ["route", "show"], ["hmac", "show"],
                                  ["tunsrc", "show"], ["-j", "stats"]])
def test_reads_need_no_privilege(seg6x, args):
    p = _as_nobody(*args)
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("args", [["tunsrc", "set", "fc00::1"],
                                  ["iface", "set", "default",
                                   "seg6_enabled", "1"],
                                  ["hmac", "del", "7"],
                                  ["stats", "reset"]])
def test_writes_need_net_admin(seg6x, args):
    before = ctl("-j", "iface", "show").stdout
    p = _as_nobody(*args)
    assert p.returncode == 1
    assert "Operation not permitted" in p.stderr
    assert ctl("-j", "iface", "show").stdout == before
