"""Writing the generated files: each text written to its path, the folders
above it made first.  Every other module of the generator writes through it.
"""
import os


def write_text(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
