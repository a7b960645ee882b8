"""A shell prompt in front of a command line: the one definition every reader uses.

Posters paste commands with the prompt they typed them at: `$ `, `# `, `% `, `user@host:~/dir$ `,
`[root@host dir]# `, `host:/dir# `, `root /home/wfg# `, `wfg ~% `, `/ # `. A prompt is an optional
prefix naming where the command runs, one of `$ # %`, then a blank or the end of the line (a prompt
with nothing typed after it). A word set apart from the mark (`Run # 1`, `ie. 33% slower`) is
prose, not a prompt, so a caption reader that skips prompts never skips a caption for one.
"""

from __future__ import annotations

import re

# a token holding `@`, `:`, `/` or `~` (`user@host:~/dir`, `host:/dir`, `/`), split at the first of
# them (never trying every split), maybe with blanks before the mark (`user@host:/tmp $`)
_PLACE = r"[^\s#$%@:/~\[\]]{0,100}+[@:/~][^\s#$%]{0,200}+"
_WORD = r"[^\s#$%@:/~\[\]]{1,40}+"
# `user@host:dir`, `user@host~`, split at the first `@` and the first `:`/`~` after it; `[user@host dir]`
_HOST = r"[^\s#$%@\[\]]{1,40}+@[^\s#$%:~]{1,80}+[:~][^\s#$%]{0,200}+\s{0,4}+|\[[^\]\s@]{1,40}+@[^\]]{1,80}+\]"
# any other prefix: that token; a plain word and that token (`root /home/wfg`, `wfg ~`); a plain word
# right before `#`/`$` (`host# `, `sh-4.2# `, `bash-3.2$ `; `33% ` is a share); any `[...]`
_OTHER = rf"{_PLACE}\s{{0,4}}+|{_WORD}(?:\s{_PLACE}|(?=[#$]))|\[[^\]]{{1,80}}+\]"
_PROMPT = re.compile(rf"^\s*+(?:(?P<host>{_HOST})|(?P<other>{_OTHER}))?[#$%](?:\s++|$)")


def prompt_end(line: str, host_only: bool = False) -> int | None:
    """Where the command after the prompt opening `line` starts; None when no prompt opens it.
    `host_only`: a bare mark or a `user@host` prompt only, for caption readers, where a line taken
    for a prompt is skipped and a caption must not be (`/ # `, `host:/dir# ` are not counted)."""
    m = _PROMPT.match(line)
    if m is None or (host_only and m.group("other") is not None):
        return None
    return m.end()


def is_prompted(line: str, host_only: bool = False) -> bool:
    """True when `line` opens with a shell prompt (leading blanks allowed); see `prompt_end`."""
    return prompt_end(line, host_only) is not None


_HOST_NAME = re.compile(r"@(?P<at>[^\s#$%:~\]]{1,80})|^\[?(?P<word>[A-Za-z][\w.-]{0,40})(?=[:~])")


def prompt_host(line: str) -> str | None:
    """The machine a prompt names (`beetle:~ # `, `root@box:~$ `, `[root@box dir]# `), or None
    (`$ `, `/ # `, `root /home/wfg# `: no host in them)."""
    m = _PROMPT.match(line)
    if m is None or not (m.group("host") or m.group("other")):
        return None
    h = _HOST_NAME.search((m.group("host") or m.group("other")).strip())
    return (h.group("at") or h.group("word")) if h else None


# the end of a shell loop or command (`done`, `fi`, `... 2>/dev/null;`, a `\` continuation)
_SHELL_SYNTAX = re.compile(r"^[ \t]*+(?:(?:done|do|fi|then|else|esac|\}|;;)[ \t]*+;?|[^\n]*[;\\])[ \t]*+$")


def is_shell_syntax(line: str) -> bool:
    """A line of a shell script's syntax, which names nothing a table or figure below it measured."""
    return _SHELL_SYNTAX.match(line) is not None


OPTION = re.compile(r"^--?[A-Za-z][\w-]{0,30}$")  # `-l`, `--loops`: a command's option


def traced(line: str) -> bool:
    """A shell's trace of a command it ran (`set -x`: `+ dmesg -c`, `++ nproc -a`): a `+` mark, a word,
    then an option; a list item (`+ with the patch:`) takes no option."""
    words = line.split()
    return len(words) >= 3 and words[0].strip("+") == "" and any(OPTION.match(w) for w in words[2:])

