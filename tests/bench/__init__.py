"""Tests for bench/."""
