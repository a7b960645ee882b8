"""Lines that never hold a result."""

from transforms.extract import extract_explained
from transforms.handmade.noise import noise_line
from transforms.rows import result_rows

# https://lkml.iu.edu/ (2001, OSDL STP UnixBench thread): the signature under the results
SIGNATURE = """\
UnixBench results are somewhat funny.

Open Source Development Lab Inc - A non-profit corporation
15275 SW Koll Parkway - Suite H - Beaverton OR, 97006
(503)-626-2455 x11 (office)    (503)-702-2871     (cell)
(503)-626-2436     (fax)
"""


def test_telephone_numbers_are_noise():
    assert noise_line("(503)-626-2455 x11 (office)    (503)-702-2871     (cell)")
    assert noise_line("(503) 626-2436     (fax)")
    assert not noise_line("Throughput 503.5 MB/sec 16 procs")


def test_a_signature_with_telephone_numbers_gives_no_rows():
    assert result_rows(extract_explained(SIGNATURE, "s")[0]) == []
