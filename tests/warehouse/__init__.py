"""Tests for warehouse/."""
