"""Changes every result-cache entry of a folder as a bad disk, an editor or a
hand might, for cache-tamper.test.

usage: tamper-cache-entry.py MODE FOLDER
  offset         the Offset of the first edit of the first finding, plus one
  mask           the mask an edit writes, 0xffffffff made 0x0000ffff
  truncate       the entry cut to its first half
  reseal-offset  as offset, in the edit and in the record of the text it
                 replaces, with the entry's checksum made again to match
  reseal-device  the path of the first dependency made /dev/zero, with the
                 entry's checksum made again to match
  reseal-deep    a dependency path nested 50,000 flow sequences deep, with
                 the entry's checksum made again to match
"""
import glob
import hashlib
import re
import sys

mode, folder = sys.argv[1:]
entries = glob.glob(folder + '/*.yaml')
if not entries:
    sys.exit('no cache entry in ' + folder)
for path in entries:
    data = open(path, 'rb').read()
    if mode == 'truncate':
        data = data[:len(data) // 2]
    else:
        first, payload = data.split(b'\n', 1)
        if mode in ('reseal-device', 'reseal-deep'):
            dependency = re.search(rb"\n  - Path: +('[^'\n]*')", payload)
            replacement = (b"'/dev/zero'" if mode == 'reseal-device'
                           else b'[' * 50000)
            changed = (payload[:dependency.start(1)] + replacement +
                       payload[dependency.end(1):])
            first = (b'# warpfix cache entry, sha256 ' +
                     hashlib.sha256(changed).hexdigest().encode())
        elif mode == 'mask':
            changed = payload.replace(b"ReplacementText: '0xffffffff, '",
                                      b"ReplacementText: '0x0000ffff, '", 1)
        else:
            edit = re.search(rb'\n          Offset: +(\d+)\n          Length: +(\d+)', payload)
            offset, length = int(edit[1]), int(edit[2])
            changed = (payload[:edit.start(1)] + b'%d' % (offset + 1) +
                       payload[edit.end(1):])
            if mode == 'reseal-offset':
                record = b'Offset: %d, Length: %d,' % (offset, length)
                if record not in changed:
                    sys.exit('no record of the edit at %d in %s' % (offset, path))
                changed = changed.replace(
                    record, b'Offset: %d, Length: %d,' % (offset + 1, length), 1)
                first = (b'# warpfix cache entry, sha256 ' +
                         hashlib.sha256(changed).hexdigest().encode())
            elif mode != 'offset':
                sys.exit('unknown mode ' + mode)
        if changed == payload:
            sys.exit('nothing to change in ' + path)
        data = first + b'\n' + changed
    open(path, 'wb').write(data)
