"""Tests for transforms/."""
