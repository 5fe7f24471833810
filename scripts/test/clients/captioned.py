"""Kokoro-FastAPI's documented /dev/captioned_speech usage, with requests, against kokoro."""

import base64
import json
import os
import sys

import requests

URL, SCENARIO, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
TEXT = "Hello world! How are you?"


def ok(msg):
    print("ok:", msg, flush=True)


def check_timestamps(ts):
    assert isinstance(ts, list) and ts, ts
    for t in ts:
        assert set(t) >= {"word", "start_time", "end_time"}, t
        assert isinstance(t["start_time"], float) and t["end_time"] > t["start_time"], t
    return [t["word"] for t in ts]


def readme():
    # Word-level timestamps without streaming, as Kokoro-FastAPI's README shows it.
    response = requests.post(
        URL + "/dev/captioned_speech",
        json={"model": "kokoro", "input": TEXT, "voice": "af_bella", "speed": 1.0,
              "response_format": "mp3", "stream": False},
        stream=False,
    )
    assert response.status_code == 200, response.text
    with open(os.path.join(OUT, "whole.mp3"), "wb") as f:
        audio_json = json.loads(response.content)
        f.write(base64.b64decode(audio_json["audio"].encode("utf-8")))
    words = check_timestamps(audio_json["timestamps"])
    assert words == TEXT.split(), words
    assert audio_json["audio_format"] == "audio/mpeg", audio_json["audio_format"]
    ok(f"complete: {len(words)} timestamps, {audio_json['audio_format']}")

    # With streaming: one JSON object a line.
    response = requests.post(
        URL + "/dev/captioned_speech",
        json={"model": "kokoro", "input": TEXT, "voice": "af_bella", "speed": 1.0,
              "response_format": "mp3", "stream": True},
        stream=True,
    )
    assert response.status_code == 200, response.text
    words, lines = [], 0
    with open(os.path.join(OUT, "streamed.mp3"), "wb") as f:
        for chunk in response.iter_lines(decode_unicode=True):
            if chunk:
                chunk_json = json.loads(chunk)
                f.write(base64.b64decode(chunk_json["audio"].encode("utf-8")))
                if chunk_json["timestamps"]:
                    words += check_timestamps(chunk_json["timestamps"])
                lines += 1
    assert words == TEXT.split(), words
    ok(f"streamed: {lines} lines, {len(words)} timestamps")


{"readme": readme}[SCENARIO]()
