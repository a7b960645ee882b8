"""Tests for flows/archives/."""
