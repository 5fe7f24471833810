"""Reads audio files with soundfile (libsndfile), the usual way Python reads audio.

    python soundfile_read.py FILE...

Each FILE's format is its extension (.wav .flac .mp3 .opus, or .pcm: 16-bit mono 24 kHz
without a header). Prints one line per file: its name, the frames soundfile.read returned and
the sample rate; fails with a traceback on a file it cannot read.
"""

import os
import sys

import soundfile


def main(paths):
    for path in paths:
        if path.endswith(".pcm"):
            data, rate = soundfile.read(path, format="RAW", samplerate=24000, channels=1, subtype="PCM_16")
        else:
            data, rate = soundfile.read(path)
        print(os.path.basename(path), len(data), rate)


if __name__ == "__main__":
    main(sys.argv[1:])
