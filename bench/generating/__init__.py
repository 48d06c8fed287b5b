"""The generator of the benchmark's inputs, one module per phase, with
bench/generate.py re-exporting what run.py and other callers use: the
shared headers (headers), the translation units of each kind, each a
function of (rng, name) returning a TU's text (heavy, legacy, host,
modern), the code base assembled from them with its compile_commands.json
(codebase), the one-file scaling input (scaling), and writing a file
(files).  Everything depends only on the seed and the sizes asked for.
"""
