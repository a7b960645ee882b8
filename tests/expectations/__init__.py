"""Tests for expectations/."""
