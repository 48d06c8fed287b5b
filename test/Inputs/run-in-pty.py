"""Runs a command with its standard error on a pseudo-terminal, as a user's
shell would, and prints what it wrote there with the control characters made
visible: <CR> for a carriage return, <EL> for erase-to-end-of-line.

The command's standard output stays a pipe and is printed first.
Usage: run-in-pty.py command [args...]; exits with the command's status.
"""
import os
import pty
import subprocess
import sys

master, slave = pty.openpty()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=slave)
os.close(slave)
terminal = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:  # EIO once the child has closed its end
        break
    if not chunk:
        break
    terminal += chunk
stdout = child.stdout.read()
status = child.wait()
text = terminal.decode("utf-8", "replace").replace("\r\n", "\n")
text = text.replace("\r", "<CR>").replace("\x1b[K", "<EL>")
sys.stdout.write(stdout.decode("utf-8", "replace"))
sys.stdout.write(text)
sys.exit(status)
