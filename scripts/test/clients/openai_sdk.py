"""The official OpenAI Python SDK against kokoro's OpenAI-compatible routes."""

import base64
import io
import json
import os
import sys
import threading
import wave

import openai

URL, SCENARIO, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
TEXT = "The quick brown fox. It jumps over the lazy dog."


def ok(msg):
    print("ok:", msg, flush=True)


def client(**kw):
    return openai.OpenAI(base_url=URL + "/v1", api_key="unused", **kw)


def save(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def expect_status(status, code, fn, param=None):
    """fn must raise the SDK's APIStatusError with this status, error code and param; the
    error object (OpenAI's shape) is returned, and the exception's text holds its message."""
    try:
        fn()
    except openai.APIStatusError as e:
        assert e.status_code == status, (e.status_code, e.response.text)
        assert e.code == code and e.param == param, (e.code, e.param, e.response.text)
        body = e.response.json()["error"]
        assert body["message"] and body["message"] in str(e), (str(e), body)
        return body
    raise AssertionError(f"no {status} {code}")


def compat():
    c = client()
    # Item 1: what the SDK sends by default (no response_format) must just work: mp3.
    r = c.audio.speech.create(model="tts-1", voice="alloy", input=TEXT)
    assert r.response.headers["content-type"] == "audio/mpeg", r.response.headers
    save("default.mp3", r.content)
    ok(f"default response_format: {len(r.content)} bytes of audio/mpeg")
    for fmt in ["opus", "flac", "wav", "pcm"]:
        r = c.audio.speech.create(model="gpt-4o-mini-tts", voice="nova", input=TEXT, response_format=fmt)
        save("sdk." + fmt, r.content)
        ok(f"{fmt}: {len(r.content)} bytes of {r.response.headers['content-type']}")
    # Item 4: Python's wave module reads the real length of the SDK's wav.
    r = c.audio.speech.create(model="tts-1", voice="shimmer", input=TEXT, response_format="wav")
    with wave.open(io.BytesIO(r.content)) as w:
        seconds = w.getnframes() / w.getframerate()
        assert w.getframerate() == 24000 and w.getnchannels() == 1, (w.getframerate(), w.getnchannels())
        assert 0 < seconds < 60, seconds
        assert w.getnframes() * 2 + 44 == len(r.content), (w.getnframes(), len(r.content))
    ok(f"wave reads {seconds:.3f} s")
    # Streamed as it is synthesized: the SDK's streaming response yields pieces.
    with c.audio.speech.with_streaming_response.create(model="tts-1", voice="echo", input=TEXT, response_format="pcm") as r:
        pieces = [p for p in r.iter_bytes() if p]
    save("streamed.pcm", b"".join(pieces))
    ok(f"streamed pcm in {len(pieces)} pieces")
    # Item 2: every voice name the SDK knows speaks.
    import typing
    from openai.types.audio import speech_create_params
    names = [a for a in typing.get_args(speech_create_params.Voice) if typing.get_origin(a) is typing.Literal]
    for name in typing.get_args(names[0]):
        c.audio.speech.create(model="tts-1", voice=name, input="Hi.", response_format="pcm")
    ok(f"{len(typing.get_args(names[0]))} OpenAI voice names speak")
    # Item 3: models, speed range, instructions, sse.
    ids = [m.id for m in c.models.list()]
    assert "tts-1" in ids and "kokoro" in ids, ids
    assert c.models.retrieve("tts-1-hd").id == "tts-1-hd"
    try:
        c.models.retrieve("whisper-1")
        raise AssertionError("whisper-1 found")
    except openai.NotFoundError:
        pass
    ok(f"models: {ids}")
    for speed in (0.25, 4.0):
        c.audio.speech.create(model="tts-1", voice="alloy", input="Hi.", speed=speed, response_format="pcm")
    ok("speed 0.25 and 4.0 accepted")
    c.audio.speech.create(model="gpt-4o-mini-tts", voice="coral", input="Hi.", instructions="Speak cheerfully.", response_format="pcm")
    ok("instructions accepted")
    r = c.audio.speech.create(model="gpt-4o-mini-tts", voice="coral", input=TEXT, response_format="pcm", stream_format="sse")
    assert r.response.headers["content-type"].startswith("text/event-stream"), r.response.headers
    events = [json.loads(line[6:]) for line in r.text.splitlines() if line.startswith("data: ")]
    assert events[-1]["type"] == "speech.audio.done" and "usage" in events[-1], events[-1]
    audio = b"".join(base64.b64decode(e["audio"]) for e in events if e["type"] == "speech.audio.delta")
    save("sse.pcm", audio)
    ok(f"sse: {len(events)} events")
    # Item 1: aac is refused clearly.
    body = expect_status(400, "unsupported_format", lambda: c.audio.speech.create(model="tts-1", voice="alloy", input="Hi.", response_format="aac"),
                         param="response_format")
    ok("aac: " + body["message"])


def real():
    # The real model behind the SDK's defaults: mp3, and Ogg Opus and FLAC on request.
    c = client(timeout=600)
    text = "The quick brown fox jumps over the lazy dog."
    save("real.mp3", c.audio.speech.create(model="tts-1", voice="alloy", input=text).content)
    save("real.opus", c.audio.speech.create(model="tts-1", voice="nova", input=text, response_format="opus").content)
    save("real.flac", c.audio.speech.create(model="tts-1", voice="fable", input=text, response_format="flac").content)
    ok("real model: mp3, opus, flac")


def errors():
    # Default retries on: a 4xx must not be retried (the Go test counts requests server-side).
    c = client()
    for text in ["#", "---", "|", "\u266a", "\u200b", "\ufeff", "\x00", "\U0001F600", "\u4f60\u597d"]:
        expect_status(400, "empty_text", lambda: c.audio.speech.create(model="tts-1", voice="alloy", input=text), param="input")
    ok("nothing speakable: 400 empty_text")
    expect_status(400, "invalid_request_id",
                  lambda: c.audio.speech.create(model="tts-1", voice="alloy", input="Hi.", extra_headers={"X-Request-Id": "x" * 100_000}),
                  param="request_id")
    ok("100 KB X-Request-Id: 400 invalid_request_id")
    expect_status(400, "invalid_speed", lambda: c.audio.speech.create(model="tts-1", voice="alloy", input="Hi.", speed=4.5), param="speed")
    expect_status(400, "unsupported_stream_format",
                  lambda: c.audio.speech.create(model="tts-1", voice="alloy", input="Hi.", extra_body={"stream_format": "chunks"}),
                  param="stream_format")
    ok("speed 4.5 and stream_format chunks refused")
    # The exception a framework shows names the voice and the valid ones, read whole or
    # streamed (as voice-agent frameworks read speech).
    body = expect_status(400, "unknown_voice", lambda: c.audio.speech.create(model="tts-1", voice="af_nobody", input="Hi."), param="voice")
    assert "af_nobody" in body["message"] and "af_heart" in body["message"], body

    def streamed():
        with c.audio.speech.with_streaming_response.create(model="tts-1", voice="af_nobody", input="Hi.", response_format="pcm") as r:
            r.read()
    try:
        streamed()
        raise AssertionError("af_nobody spoke")
    except openai.BadRequestError as e:
        assert "af_nobody" in str(e) and "af_heart" in str(e), str(e)
        ok("unknown voice: " + str(e)[:120])


def drain():
    # Item 7: a request that cannot finish in the drain budget gets a 5xx the SDK reports; new
    # work while draining gets 503 shutting_down. No retries: the server is going away.
    c = client(max_retries=0, timeout=60)
    result = {}

    def long():
        try:
            c.audio.speech.create(model="tts-1", voice="alloy", input="Long sentence. " * 200, response_format="wav")
            result["long"] = "completed"
        except openai.APIStatusError as e:
            result["long"] = (e.status_code, e.code)

    t = threading.Thread(target=long)
    t.start()
    print("READY", flush=True)
    sys.stdin.readline()  # the Go test says the server is draining
    body = expect_status(503, "shutting_down", lambda: c.audio.speech.create(model="tts-1", voice="alloy", input="Hi."))
    ok("new work while draining: 503 " + body["code"])
    t.join()
    assert result["long"] == (503, "shutting_down"), result
    ok("request cut by the drain budget: 503 shutting_down")


{"compat": compat, "real": real, "errors": errors, "drain": drain}[SCENARIO]()
