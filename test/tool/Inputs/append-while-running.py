"""Runs a command while another thread appends to FILE, as an editor's save or
a log might, for file-grows-during-parse.test.

usage: append-while-running.py FILE COMMAND...

Prints the command's exit code, the size of what it wrote to stderr, then
its stdout and (at most the first 2000 bytes of) its stderr.
"""
import subprocess
import sys
import threading
import time

path, *command = sys.argv[1:]
stop = threading.Event()


def append():
    with open(path, 'a') as out:
        while not stop.is_set():
            out.write('// appended while warpfix parses this file ......\n')
            out.flush()
            time.sleep(0.0002)


appender = threading.Thread(target=append)
appender.start()
try:
    run = subprocess.run(command, capture_output=True)
finally:
    stop.set()
    appender.join()
print('exit code', run.returncode)
print('stderr bytes', len(run.stderr))
sys.stdout.write(run.stdout.decode('utf-8', 'replace'))
sys.stdout.write(run.stderr[:2000].decode('utf-8', 'replace'))
