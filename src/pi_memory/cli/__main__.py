"""``python -m pi_memory.cli`` runs the same program as the ``pi-memory`` console script."""

from pi_memory.cli.entry import main

main(prog_name="pi-memory")
