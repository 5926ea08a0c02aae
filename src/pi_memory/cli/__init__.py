"""The ``pi-memory`` command line: ``status``, ``read``, ``add``, ``replace``, ``remove``, ``demo``."""
