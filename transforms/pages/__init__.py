"""Archive pages (HTML, raw downloads) to `Mail`: one module per page format, no I/O."""
