"""One definition of a shell prompt (transforms/shell.py), as posters paste commands."""

import pytest

from transforms.shell import is_prompted, prompt_end


@pytest.mark.parametrize(
    "line,end",
    [
        ("$ ./hackbench 10", 2),
        ("  # echo 3 > /proc/sys/vm/drop_caches", 4),
        ("david@debian:~/go/src/rdstdin$ cat test.txt", 31),
        ("user@host:/tmp $ ls", 17),
        ("[root@zefir root]# /root/db2.sh 2 16", 19),
        ("[root@sw069 ~]#", 15),  # a prompt with nothing typed after it
        ("zzz:~# dd if=/dev/sda2 of=/dev/null", 7),
        ("root /home/wfg# echo 10 > /proc/sys/vm/dirty_ratio", 16),
        ("wfg ~% dd if=/dev/zero of=/opt/vm/10G", 7),
        ("/ # mkdir /hff", 4),
        ("bash-3.2$ ls", 10),
    ],
)
def test_prompts_as_posted(line, end):
    assert prompt_end(line) == end
    assert is_prompted(line)


@pytest.mark.parametrize(
    "line",
    ["Run # 1:", "ie. 33% slower already.", "33% slower", "CPU: 45% idle", "#define X 1",
     "--- GMAC5@1G: After", "Results:", "", "x" * 500 + "# y"],
)
def test_prose_is_no_prompt(line):
    assert prompt_end(line) is None


def test_host_only_counts_a_bare_mark_or_a_user_at_host_prompt():
    assert prompt_end("# echo 1", host_only=True) == 2
    assert prompt_end("fun@FunServer04:~$ netperf -t TCP_STREAM", host_only=True) == 19
    assert prompt_end("[root@athy /]# bonnie -s 1024", host_only=True) == 15
    for line in ("/ # mkdir /hff", "zzz:~# echo 3", "wfg ~% dd", "host# ls", "[1]# x"):
        assert is_prompted(line)
        assert not is_prompted(line, host_only=True), line


def test_long_lines_stay_fast():
    import time

    for text in ("a" * 100_000, "a@" * 50_000, "@:" * 50_000, "[" * 100_000, " " * 100_000 + "x"):
        t = time.perf_counter()
        assert prompt_end(text) is None
        assert time.perf_counter() - t < 0.05


def test_the_machine_a_prompt_names():
    from transforms.shell import prompt_host

    # https://lore.kernel.org/lkml/Pine.LNX.4.10.10105292045120.3596-100000@master.linux-ide.org/
    assert prompt_host("beetle:~ # hdparm -it /dev/hda") == "beetle"
    assert prompt_host("root@box:~$ hdparm -t /dev/sda") == "box"
    assert prompt_host("[root@box dir]# hdparm -t /dev/sda") == "box"
    for line in ("$ hdparm -t /dev/sda", "/ # hdparm", "root /home/wfg# ls", "Run # 1", "plain text"):
        assert prompt_host(line) is None
