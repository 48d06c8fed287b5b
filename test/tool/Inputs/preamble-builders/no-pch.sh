#!/bin/sh
# The real builder ($WARPFIX), whose PCH ($3) is then removed.
"$WARPFIX" "$@" && rm -f "$3"
