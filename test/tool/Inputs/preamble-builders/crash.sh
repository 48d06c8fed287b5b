#!/bin/sh
# A preamble builder that dies of a signal.
kill -SEGV $$
