"""Each archive kind's options are a typed dataclass: unknown keys and wrong types fail at load."""

from __future__ import annotations

import dataclasses

import pytest

from flows.archives import KINDS
from flows.archives.base import UnitError
from flows.archives.hyperkitty import Options as HyperkittyOptions
from flows.archives.options import COMMON, typed_options
from flows.archives.public_inbox import Options as PublicInboxOptions
from flows.config import KNOWN_KINDS, ConfigError, Source, load_config
from tests.conftest import mbox_source, write_config


def test_known_kinds_are_the_registry():
    assert tuple(KINDS) == KNOWN_KINDS
    assert {"mbox", "pipermail", "hyperkitty", "mhonarc", "marc"} <= set(KNOWN_KINDS)


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_kind_declares_frozen_options_with_defaults(name):
    cls = KINDS[name].Options
    assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen
    assert not {f.name for f in dataclasses.fields(cls)} & COMMON  # caps stay in Limits
    assert typed_options(cls, Source("s", name, "x")) == cls()


def test_a_typo_is_an_error_listing_the_valid_keys(tmp_path):
    cfg = write_config(tmp_path, mbox_source("kvm", "https://h/hyperkitty/list/kvm@h/", kind="hyperkitty",
                                             settled_afer_days=3))
    with pytest.raises(ConfigError) as err:
        load_config(cfg)
    msg = str(err.value)
    assert "unknown option settled_afer_days for kind hyperkitty" in msg
    assert "valid: " in msg and "settled_after_days" in msg and "max_message_bytes" in msg


@pytest.mark.parametrize("opts, message", [
    ({"batch_files": "10"}, "option batch_files must be an integer, got '10'"),
    ({"batch_files": 0}, "option batch_files must be positive, got 0"),
])
def test_wrong_types_fail_at_load(tmp_path, opts, message):
    cfg = write_config(tmp_path, mbox_source("md", tmp_path, kind="maildir", **opts))
    with pytest.raises(ConfigError, match=message):
        load_config(cfg)


def test_good_options_load_and_read_typed(tmp_path):
    src = mbox_source("lore", "https://lore.example.org/kvm/", kind="public-inbox", epochs=[1, 0],
                      threads=["a@b"], git_timeout_s=60, max_message_bytes=5000, quiet_days=30)
    (source,) = load_config(write_config(tmp_path, src)).sources
    opts = typed_options(PublicInboxOptions, source)
    assert (opts.epochs, opts.threads, opts.raw_messages, opts.git_timeout_s, opts.max_commits) == \
        ([1, 0], ["a@b"], [], 60.0, None)
    assert source.limits.max_message_bytes == 5000


def test_lists_and_optional_values_are_checked():
    bad = Source("lore", "public-inbox", "x", options={"epochs": ["0"]})
    with pytest.raises(UnitError, match="epochs must be a list of int"):
        typed_options(PublicInboxOptions, bad)
    ok = Source("lore", "public-inbox", "x", options={"max_commits": None})
    assert typed_options(PublicInboxOptions, ok).max_commits is None
    hk = typed_options(HyperkittyOptions, Source("kvm", "hyperkitty", "x", options={"settled_after_days": False}))
    assert hk.settled_after_days is False  # the kind reads `false` as "ask every run"
