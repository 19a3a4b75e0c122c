"""Observers of a run: they read the machine state and the executor's write log after each step and
change nothing: the write log as facts (effects), --trace (trace), `ascasm stats` (stats), the
pictures (draw), reverse execution (history) and who wrote a byte (provenance)."""
