"""The lead-in sentence names the system of the printout below it (transforms/leadin.py)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.extract import extract_explained
from transforms.leadin import lead_in, releases
from transforms.rows import result_rows

# https://lore.kernel.org/linux-mm/ (2009, Wu Fengguang, "a single dd on my laptop"), the lines as posted
DD = """\
Here is a single dd on my laptop with 4G memory, kernel 2.6.30.

        root /home/wfg# echo 10 > /proc/sys/vm/dirty_ratio
        root /home/wfg# echo 20 > /proc/sys/vm/dirty_background_ratio

        wfg ~% dd if=/dev/zero of=/opt/vm/10G bs=1M count=1000
        1000+0 records in
        1000+0 records out
        1048576000 bytes (1.0 GB) copied, 12.7143 s, 82.5 MB/s
"""


def test_releases_as_posters_write_them():
    assert releases("kernel 2.6.30, then 2.6.31-rc1 and linux-2.4.10 and v5.15") == [
        "2.6.30", "2.6.31-rc1", "2.4.10", "5.15"]
    assert releases("fio-3.19 and iperf 3.1.3 and LuaJIT 2.1.0, version 1.03") == ["2.1.0"]
    assert releases("LuaJIT 2.1.0 and 4.7.2", strong=True) == []
    assert releases("192.168.1.10 and 10.0.0.1 at 3.5 GHz") == []


def test_lead_in_is_the_paragraph_above():
    lines = ["Intro.", "", "Run on kernel 2.6.30", "with ext4.", "", "output"]
    assert lead_in(lines, 5) == "Run on kernel 2.6.30 with ext4."


def test_a_printout_gets_the_release_its_lead_in_sentence_names():
    rows = result_rows(extract_explained(DD, "d")[0])
    assert {r["system"] for r in rows} == {"2.6.30"}
    assert 82.5 in {r["value"] for r in rows}


def test_two_releases_named_guess_nothing():
    text = DD.replace("kernel 2.6.30.", "kernel 2.6.30 and 2.6.31.")
    assert {r["system"] for r in result_rows(extract_explained(text, "d")[0])} == {None}


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123456789.-kernlux vrcm\n")), max_size=400))
def test_releases_never_raise_and_are_named_in_the_text(text):
    for name in releases(text):
        assert name.split("-")[0] in text
