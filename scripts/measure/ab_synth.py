"""Two or more ways of running `kokoro synth`, measured side by side in one run.

Each round runs every variant once on the same text, in an order that alternates from round to
round (A B, B A, ...), so that a change in the machine's load reaches every variant alike. Each
run is a fresh `kokoro synth -v` process; its own report gives the model time and the audio
length, whose ratio is the real-time factor (RTF: seconds of model time per second of audio,
lower is faster). The load and the model load are outside what is timed.

The report gives every run, then per variant the median RTF with its range over rounds, and
per round the ratio of each variant's RTF to the first variant's (median and range): the
comparison is made within a round, never between separate runs.

  python3 scripts/measure/ab_synth.py --title T --text-file F --rounds 5 --out FILE \
      --variant 'name=--flag value' --variant 'other=--flag value2' [--common '--threads 2']

The binary is bin/kokoro (`make build`); stdlib only.
"""

import argparse
import datetime
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import time

WROTE = re.compile(r"wrote .*: ([0-9.]+) s of audio, (\d+) chunks, model ([0-9.]+) s \(RTF ([0-9.]+)")


def host():
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
            mem = f", {kb / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return f"{cpu}, {os.cpu_count()} CPUs{mem}, {platform.system()} {platform.release()}"


def load():
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[0])
    except OSError:
        return float("nan")


def run(binary, text_file, args):
    cmd = [binary, "synth", "--file", text_file, "-o", os.devnull, "-v", *args]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    m = WROTE.search(p.stderr)
    if p.returncode != 0 or not m:
        sys.exit(f"ab_synth: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    audio, chunks, model, rtf = float(m[1]), int(m[2]), float(m[3]), float(m[4])
    return {"audio": audio, "chunks": chunks, "model": model, "rtf": model / audio, "wall": wall}


def spread(xs):
    return f"{statistics.median(xs):.3f} [{min(xs):.3f}, {max(xs):.3f}]"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--title", required=True)
    ap.add_argument("--text-file", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--variant", action="append", required=True, help="NAME=ARGS for kokoro synth")
    ap.add_argument("--common", default="", help="arguments every run gets")
    ap.add_argument("--binary", default="bin/kokoro")
    ap.add_argument("--out", help="also write the report here")
    ap.add_argument("--command-line", help="the command to print as the one that made the report")
    a = ap.parse_args()
    variants = []
    for v in a.variant:
        name, _, args = v.partition("=")
        variants.append((name, shlex.split(a.common) + shlex.split(args)))
    if len(variants) < 2:
        sys.exit("ab_synth: give at least two --variant")

    lines = []

    def say(s=""):
        print(s, flush=True)
        lines.append(s)

    with open(a.text_file, encoding="utf-8") as f:
        words = len(f.read().split())
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True, text=True).stdout.strip()
    say(f"# {a.title}")
    say()
    say(f"command: {a.command_line or ' '.join(shlex.quote(x) for x in sys.argv)}")
    say(f"date:    {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, commit {commit}")
    say(f"host:    {host()}")
    say(f"text:    {a.text_file} ({words} words), {a.rounds} rounds, order alternating")
    for name, args in variants:
        say(f"variant {name}: kokoro synth {' '.join(shlex.quote(x) for x in args)}")
    say()
    say(f"{'round':>5}  {'variant':<10} {'audio s':>8} {'chunks':>6} {'model s':>8} {'RTF':>6} {'wall s':>7} {'load':>5}")
    results = {name: [] for name, _ in variants}
    for r in range(a.rounds):
        order = variants if r % 2 == 0 else variants[::-1]
        for name, args in order:
            before = load()
            res = run(a.binary, a.text_file, args)
            results[name].append(res)
            say(f"{r + 1:>5}  {name:<10} {res['audio']:>8.2f} {res['chunks']:>6} {res['model']:>8.2f} "
                f"{res['rtf']:>6.3f} {res['wall']:>7.1f} {before:>5.1f}")
    say()
    say("RTF (model seconds per audio second; lower is faster): median [min, max] over rounds")
    for name, _ in variants:
        say(f"  {name:<10} {spread([x['rtf'] for x in results[name]])}")
    base = variants[0][0]
    say(f"RTF relative to {base}, within each round: median [min, max]")
    for name, _ in variants[1:]:
        ratios = [x["rtf"] / y["rtf"] for x, y in zip(results[name], results[base])]
        say(f"  {name:<10} {spread(ratios)}  ({name} takes this many times {base}'s model time per audio second)")
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
