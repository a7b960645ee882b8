"""Tests for flows/."""
