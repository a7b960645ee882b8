"""The lead-in sentence names the system of the printout below it (transforms/leadin.py)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.extract import extract_explained
from transforms.leadin import lead_in, order_legend, releases
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


# https://lore.kernel.org/lkml/20010808063914Z270354-28344+2861@vger.kernel.org/ (2001, dbench on
# 2.4.7-ac3 and -ac9), the first two groups as posted
ORDER = """\
first lines for 2.4.7-ac3, then 2.4.7-ac9

dbench 48
Throughput 27.3983 MB/sec (NB=34.2479 MB/sec  273.983 MBit/sec)
37.580u 115.730s 3:51.30 66.2%  0+0k 0+0io 1310pf+0w

Throughput 18.4711 MB/sec (NB=23.0889 MB/sec  184.711 MBit/sec)
37.710u 121.900s 5:43.05 46.5%  0+0k 0+0io 1311pf+0w


dbench 32
Throughput 34.7552 MB/sec (NB=43.444 MB/sec  347.552 MBit/sec)
24.620u 73.980s 2:02.55 80.4%   0+0k 0+0io 911pf+0w

Throughput 21.8827 MB/sec (NB=27.3533 MB/sec  218.827 MBit/sec)
25.410u 76.610s 3:14.04 52.5%   0+0k 0+0io 912pf+0w
"""


def test_printouts_named_by_their_order_take_the_names_in_turn():
    rows = result_rows(extract_explained(ORDER, "o")[0])
    got = {(r["system"], r["value"]) for r in rows if r["metric"] == "throughput"}
    assert got == {("2.4.7-ac3", 27.3983), ("2.4.7-ac9", 18.4711), ("2.4.7-ac3", 34.7552), ("2.4.7-ac9", 21.8827)}


def test_order_legends_as_posters_write_them():
    assert order_legend(["top: base, bottom: patched"]) == (0, ["base", "patched"])
    assert order_legend(["x", "The first run is vanilla, the second is patched."]) == (1, ["vanilla", "patched"])
    assert order_legend(["At first I thought it was the disk, then the controller."]) is None
    # an odd number of unnamed printouts below cannot be taken in turn: nothing is guessed
    odd = ORDER + "\ndbench 16\nThroughput 37.7379 MB/sec (NB=47.1724 MB/sec  377.379 MBit/sec)\n"
    assert {r["system"] for r in result_rows(extract_explained(odd, "o")[0])} == {None}


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("firstopbmhenlw ,;:.2-acx\n")), max_size=300))
def test_order_legend_never_raises_and_names_words_of_the_line(text):
    found = order_legend(text.split("\n"))
    if found is not None:
        line, names = found
        assert all(n in text.split("\n")[line] for n in names)
