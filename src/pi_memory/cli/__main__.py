"""``python -m pi_memory.cli`` runs the same app as the ``pi-memory`` console script."""

from pi_memory.cli.main import app

app(prog_name="pi-memory")
