"""Sharing: gallery, compare, watch (live preview), exports (TTS, JSON/CSV, contact sheets)."""
