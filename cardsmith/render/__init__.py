"""Batch rendering of a set's card faces and backs: keys, workers, progress and the PNG writer."""
