"""The local web UI (``pi-memory ui``)."""
